// Interfaces with static constructors whose default (instance) async methods are called: does
// calling a default interface method run the interface's type initializer, before the body, as in
// classic async? Also a generic interface (one initializer per instantiation), a static virtual
// async member called through a constrained type parameter, and an interface whose initializer throws.
using System;
using System.Threading.Tasks;

interface IGreeter
{
    static int Calls;
    static IGreeter() { Console.WriteLine("IGreeter cctor"); }
    async Task<string> Greet(string name)
    {
        Console.WriteLine("Greet enter " + name);
        await Program.Pause();
        Calls++;
        return "hello " + name;
    }
}

interface IRepo<T>
{
    static IRepo() { Console.WriteLine("IRepo cctor " + typeof(T).Name); }
    async Task<T> Load(T value)
    {
        Console.WriteLine("Load enter " + typeof(T).Name);
        await Program.Pause();
        return value;
    }
}

interface IFactory<TSelf> where TSelf : IFactory<TSelf>
{
    static IFactory() { Console.WriteLine("IFactory cctor " + typeof(TSelf).Name); }
    static virtual async Task<string> Create()
    {
        Console.WriteLine("Create enter " + typeof(TSelf).Name);
        await Program.Pause();
        return "created " + typeof(TSelf).Name;
    }
}

interface IBroken
{
    static IBroken() { Console.WriteLine("IBroken cctor"); throw new InvalidOperationException("broken"); }
    async Task<int> Work()
    {
        Console.WriteLine("Work enter");
        await Program.Pause();
        return 1;
    }
}

interface INoState
{
    static INoState() { Console.WriteLine("INoState cctor"); }
    async Task Ping()
    {
        Console.WriteLine("Ping enter");
        await Program.Pause();
    }
}

class Greeter : IGreeter { }
class Repo<T> : IRepo<T> { }
class Widget : IFactory<Widget> { }
class Gadget : IFactory<Gadget> { }
class Broken : IBroken { }
class NoState : INoState { }

static class Program
{
    public static bool Suspend;
    public static async Task Pause() { if (Suspend) await Task.Yield(); }

    static async Task<string> Make<T>() where T : IFactory<T> => await T.Create();

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            IGreeter g = new Greeter();
            Console.WriteLine("before greet");
            Console.WriteLine(await g.Greet("a"));
            IRepo<int> r1 = new Repo<int>();
            Console.WriteLine("before load int");
            Console.WriteLine(await r1.Load(5));
            IRepo<string> r2 = new Repo<string>();
            Console.WriteLine("before load string");
            Console.WriteLine(await r2.Load("s"));
            Console.WriteLine("before create");
            Console.WriteLine(await Make<Widget>());
            Console.WriteLine(await Make<Gadget>());
            INoState n = new NoState();
            Console.WriteLine("before ping");
            await n.Ping();
            IBroken b = new Broken();
            for (int i = 0; i < 2; i++)
            {
                try { Console.WriteLine(await b.Work()); }
                catch (Exception e) { Console.WriteLine(e.GetType().Name + " / " + e.InnerException?.Message); }
            }
            var t = g.Greet("b");
            Console.WriteLine(await t);
        }
    }
}
