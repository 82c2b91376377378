// Static constructors of classes whose static async methods are only awaited run before the method's
// first call, as in classic async: a class's, a generic class's once per instantiation, and one that
// throws (TypeInitializationException at each call, the body never running).
using System;
using System.Threading.Tasks;

static class Cfg
{
    static Cfg() { Console.WriteLine("Cfg cctor"); }
    public static async Task<int> Read(int k)
    {
        Console.WriteLine("Read enter " + k);
        await Task.Yield();
        return k;
    }
}
class Gen<T>
{
    static Gen() { Console.WriteLine("Gen cctor " + typeof(T).Name); }
    public static async Task<string> Name() { Console.WriteLine("Name enter"); await Task.Yield(); return typeof(T).Name; }
}
static class Thrower
{
    static Thrower() { Console.WriteLine("Thrower cctor"); throw new InvalidOperationException("cctor fail"); }
    public static async Task<int> Go() { Console.WriteLine("Go enter"); await Task.Yield(); return 1; }
}
class Program
{
    static async Task Main()
    {
        Console.WriteLine("main start");
        Console.WriteLine(await Cfg.Read(1));
        Console.WriteLine(await Gen<int>.Name());
        Console.WriteLine(await Gen<string>.Name());
        try { Console.WriteLine(await Thrower.Go()); }
        catch (Exception e) { Console.WriteLine(e.GetType().Name + " " + e.InnerException?.Message); }
        try { Console.WriteLine(await Thrower.Go()); }
        catch (Exception e) { Console.WriteLine(e.GetType().Name + " " + e.InnerException?.Message); }
    }
}
