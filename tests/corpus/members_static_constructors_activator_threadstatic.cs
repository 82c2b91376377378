// Type initialization and per-thread state around awaits: a [ModuleInitializer] that prints and sets
// state read by async code, classes with explicit static constructors (no beforefieldinit) first
// touched inside an async method before and after a suspension, RuntimeHelpers.RunClassConstructor
// called from an async method before the type's static async method is awaited, [ThreadStatic]
// fields written and read across awaits on a SingleThreadLoop (the same thread on resumption), and
// Activator.CreateInstance of generic types whose methods are async, with MakeGenericType and
// MakeGenericMethod(...).Invoke on generic async methods, the returned tasks awaited; and the
// speakable declared methods reflection sees on a type whose static async method runs its cctor.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

static class Log
{
    public static readonly List<string> Lines = new();
    public static void Add(string s) { Lines.Add(s); Console.WriteLine("  " + s); }
}

static class Boot
{
    public static string Mode = "unset";

    [ModuleInitializer]
    internal static void Init()
    {
        Console.WriteLine("module initializer");
        Mode = "booted";
    }
}

class Eager
{
    public static readonly int Value;
    static Eager() { Log.Add("Eager cctor"); Value = 11; }
    public static int Touch() => Value;
}

class Late
{
    public static int Counter;
    static Late() { Log.Add("Late cctor"); Counter = 100; }
}

class Generic<T>
{
    public static readonly string Name;
    static Generic() { Name = typeof(T).Name; Log.Add("Generic cctor " + Name); }
    public static async Task<string> Describe(T value)
    {
        await Program.Pause();
        return Name + ":" + value;
    }
}

class Explicit
{
    static Explicit() { Log.Add("Explicit cctor"); }
    public static async Task<int> Work(int x)
    {
        Log.Add("Explicit.Work " + x);
        await Program.Pause();
        return x + 1;
    }
}

class Registry
{
    static Registry() { Log.Add("Registry cctor"); }
    public static async Task<int> Alpha() { await Program.Pause(); return 1; }
    public static async Task<int> Beta() { await Program.Pause(); return 2; }
    public static int Gamma() => 3;
}

interface IRepository
{
    Task<string> LoadAsync(int id);
    Task<int> CountAsync();
}

class Repository<T> : IRepository where T : new()
{
    private readonly List<T> items = new();

    public Repository() { Log.Add("Repository<" + typeof(T).Name + "> ctor"); }

    public async Task<string> LoadAsync(int id)
    {
        await Program.Pause();
        items.Add(new T());
        return $"{typeof(T).Name}#{id} ({items.Count})";
    }

    public async Task<int> CountAsync()
    {
        await Program.Pause();
        return items.Count;
    }

    public async Task<TOut> ConvertAsync<TOut>(Func<T, TOut> convert)
    {
        await Program.Pause();
        return convert(items.Count > 0 ? items[0] : new T());
    }
}

class Widget { public override string ToString() => "widget"; }

struct Point { public int X; public override string ToString() => "pt" + X; }

static class Program
{
    static bool Suspend;

    [ThreadStatic] static int t_depth;
    [ThreadStatic] static string? t_name;

    public static async Task Pause()
    {
        if (Suspend)
            await Task.Yield();
    }

    static async Task<int> TouchBeforeAndAfter()
    {
        Log.Add("enter");
        int a = Eager.Value;
        await Pause();
        Log.Add("after first await");
        Late.Counter++;
        await Pause();
        return a + Late.Counter;
    }

    static async Task<string> GenericTouch()
    {
        var s = await Generic<int>.Describe(5);
        await Pause();
        s += " " + await Generic<string>.Describe("x");
        s += " " + await Generic<int>.Describe(6);
        return s;
    }

    static async Task<int> RunCctorExplicitly()
    {
        Log.Add("before RunClassConstructor");
        RuntimeHelpers.RunClassConstructor(typeof(Explicit).TypeHandle);
        await Pause();
        Log.Add("after RunClassConstructor");
        return await Explicit.Work(1) + await Explicit.Work(2);
    }

    static async Task<string> ThreadStatics(int depth)
    {
        t_depth = depth;
        t_name = "n" + depth;
        await Pause();
        string inner = depth > 0 ? await ThreadStatics(depth - 1) : "";
        await Pause();
        var mine = $"{t_name}/{t_depth}";
        t_depth = depth * 10;
        return mine + (inner.Length > 0 ? " " + inner : "");
    }

    static async Task<string> ActivatorGenerics()
    {
        var parts = new List<string>();
        foreach (var arg in new[] { typeof(Widget), typeof(Point) })
        {
            var type = typeof(Repository<>).MakeGenericType(arg);
            var repo = (IRepository)Activator.CreateInstance(type)!;
            await Pause();
            parts.Add(await repo.LoadAsync(1));
            parts.Add(await repo.LoadAsync(2));
            parts.Add("count " + await repo.CountAsync());
            var convert = type.GetMethod("ConvertAsync")!.MakeGenericMethod(typeof(string));
            var funcType = typeof(Func<,>).MakeGenericType(arg, typeof(string));
            var lambda = typeof(Program).GetMethod(nameof(Show), BindingFlags.NonPublic | BindingFlags.Static)!.MakeGenericMethod(arg);
            var func = Delegate.CreateDelegate(funcType, lambda);
            var task = (Task<string>)convert.Invoke(repo, new object[] { func })!;
            parts.Add("converted " + await task);
            var load = type.GetMethod("LoadAsync")!;
            Task untyped = (Task)load.Invoke(repo, new object[] { 3 })!;
            await untyped;
            parts.Add("untyped " + untyped.GetType().GetProperty("Result")!.GetValue(untyped));
        }
        var generic = (Repository<Widget>)Activator.CreateInstance(typeof(Repository<Widget>))!;
        parts.Add(await generic.ConvertAsync(w => w.ToString()!.ToUpperInvariant()));
        return string.Join("; ", parts);
    }

    static string Show<T>(T value) => "<" + value + ">";

    static async Task<string> StaticGenericViaReflection()
    {
        var describe = typeof(Generic<>).MakeGenericType(typeof(double)).GetMethod("Describe")!;
        var task = (Task<string>)describe.Invoke(null, new object[] { 1.5 })!;
        var first = await task;
        await Pause();
        var echo = typeof(Program).GetMethod(nameof(Echo), BindingFlags.NonPublic | BindingFlags.Static)!;
        var results = new List<string> { first };
        foreach (var (t, v) in new (Type, object)[] { (typeof(int), 4), (typeof(string), "s"), (typeof(Point), new Point { X = 2 }) })
        {
            var t2 = (Task)echo.MakeGenericMethod(t).Invoke(null, new[] { v })!;
            await t2;
            results.Add(t2.GetType().GetProperty("Result")!.GetValue(t2)!.ToString()!);
        }
        return string.Join(" ", results);
    }

    static async Task<T> Echo<T>(T value)
    {
        await Pause();
        return value;
    }

    static async Task<string> RegistryMethods()
    {
        var sum = await Registry.Alpha() + await Registry.Beta() + Registry.Gamma();
        const BindingFlags flags = BindingFlags.DeclaredOnly | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;
        var names = typeof(Registry).GetMethods(flags).Select(m => m.Name).Where(n => !n.StartsWith("<")).OrderBy(n => n, StringComparer.Ordinal);
        return sum + " [" + string.Join(",", names) + "]";
    }

    static async Task Main()
    {
        Console.WriteLine("main starts, mode " + Boot.Mode);
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"--- suspend={suspend}");
            Console.WriteLine("touch " + await TouchBeforeAndAfter());
            Console.WriteLine("generic " + await GenericTouch());
            Console.WriteLine("runcctor " + await RunCctorExplicitly());
            var loop = new SingleThreadLoop();
            string threadStatics = "";
            loop.RunUntilComplete(async () => { threadStatics = await ThreadStatics(3); threadStatics += " last " + t_depth; });
            loop.Stop();
            Console.WriteLine("threadstatic " + threadStatics);
            Console.WriteLine("activator " + await ActivatorGenerics());
            Console.WriteLine("reflection " + await StaticGenericViaReflection());
            Console.WriteLine("registry " + await RegistryMethods());
        }
    }
}
