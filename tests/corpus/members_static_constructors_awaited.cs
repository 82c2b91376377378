// Static constructors run before an awaited static async method's body, as a call of the method runs
// them in classic async (ECMA-335 II.10.5.3: a type without beforefieldinit): a struct's, an
// interface's, one per instantiation of a generic class (also from shared generic code), and one that
// runs field initializers. Awaited calls go straight to the variant on the continuation class.
using System;
using System.Threading.Tasks;

struct SVal
{
    static SVal() { Console.WriteLine("SVal cctor"); }
    public static async Task<int> Make() { Console.WriteLine("SVal.Make"); await Task.Yield(); return 1; }
}
interface IHas
{
    static IHas() { Console.WriteLine("IHas cctor"); }
    static async Task<int> Helper() { Console.WriteLine("IHas.Helper"); await Task.Yield(); return 2; }
}
class G<T>
{
    static G() { Console.WriteLine("G cctor " + typeof(T).Name); }
    public static async Task<int> M<U>() { Console.WriteLine("G.M " + typeof(U).Name); await Task.Yield(); return 3; }
}
class WithInit
{
    public static readonly string Val = Init();
    static string Init() { Console.WriteLine("WithInit field init"); return "v"; }
    static WithInit() { }
    public static async Task<int> Go() { Console.WriteLine("WithInit.Go"); await Task.Yield(); return Val.Length; }
}
class Program
{
    static async Task<int> Shared<T>() => await G<T>.M<T>();
    static async Task Main()
    {
        Console.WriteLine(await SVal.Make());
        Console.WriteLine(await IHas.Helper());
        Console.WriteLine(await Shared<string>());
        Console.WriteLine(await Shared<int>());
        Console.WriteLine(await WithInit.Go());
    }
}
