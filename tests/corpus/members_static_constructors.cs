// Static constructors touched by async code: a class whose static constructor runs on first access
// from inside an async method (before or after a suspension), a generic class with one static
// constructor per instantiation, a static constructor first run from an async lambda after it
// suspended, a static constructor that throws (TypeInitializationException, then the same failure again),
// and async static methods of a class with a static constructor. A struct's static constructor runs at
// the first call of any of its methods, instance methods too: awaited async instance methods of
// structs (plain, generic per instantiation, and one reading a static the constructor set).
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

static class Trace
{
    public static readonly List<string> Events = new();
    public static void Add(string e) => Events.Add(e);
}

struct Counter
{
    private int _count;
    static Counter() => Trace.Add("Counter cctor");

    public async Task<int> Next()
    {
        Trace.Add("Counter.Next enter");
        await Program.Pause();
        return ++_count;
    }
}

struct Slot<T>
{
    static Slot() => Trace.Add($"Slot<{typeof(T).Name}> cctor");

    public async Task<string> Describe()
    {
        Trace.Add($"Slot<{typeof(T).Name}>.Describe enter");
        await Program.Pause();
        return typeof(T).Name;
    }
}

struct Seeded
{
    private static int s_seed;
    static Seeded()
    {
        Trace.Add("Seeded cctor");
        s_seed = 42;
    }

    public async Task<int> Read()
    {
        Trace.Add("Seeded.Read enter");
        await Program.Pause();
        return s_seed;
    }
}

static class Config
{
    public static readonly string Name;
    static Config()
    {
        Trace.Add("Config cctor");
        Name = "cfg";
    }

    public static async Task<string> Read(string key)
    {
        await Program.Pause();
        return $"{Name}.{key}";
    }
}

class PerType<T>
{
    public static readonly string Label;
    static PerType()
    {
        Trace.Add($"PerType<{typeof(T).Name}> cctor");
        Label = typeof(T).Name.ToLowerInvariant();
    }

    public static async Task<string> Get()
    {
        await Program.Pause();
        return Label;
    }
}

static class Warm
{
    public static readonly int Value;
    static Warm()
    {
        Value = 99;
        Trace.Add($"Warm cctor {Value}");
    }
}

static class Broken
{
    public static readonly int Value = Fail();
    static int Fail() => throw new InvalidOperationException("broken static state");
    public static async Task<int> Use()
    {
        await Program.Pause();
        return Value;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> TouchAll()
    {
        var a = await Config.Read("a");
        await Pause();
        var b = await PerType<int>.Get() + "," + await PerType<string>.Get() + "," + await PerType<int>.Get();
        Func<Task<int>> late = async () =>
        {
            await Pause();
            return Warm.Value; // the first touch of Warm, on whichever thread resumed the lambda
        };
        var w = await late();
        return $"{a} {b} {w}";
    }

    static async Task StructInstanceMethods()
    {
        Trace.Events.Clear();
        var counter = new Counter();
        Trace.Add("Counter made");
        Trace.Add($"Counter.Next {await counter.Next()}");
        Slot<int> slot = default;
        Trace.Add($"Slot<int>.Describe {await slot.Describe()}");
        Trace.Add($"Slot<string>.Describe {await default(Slot<string>).Describe()}");
        Trace.Add($"Seeded.Read {await default(Seeded).Read()}");
        Console.WriteLine(string.Join(" | ", Trace.Events));
    }

    static async Task Main()
    {
        await StructInstanceMethods();
        foreach (var suspend in new[] { true, false })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await TouchAll());
            for (int i = 0; i < 2; i++)
            {
                try
                {
                    Console.WriteLine(await Broken.Use());
                }
                catch (TypeInitializationException e)
                {
                    Console.WriteLine($"{e.GetType().Name}: {e.InnerException?.Message}");
                }
            }
            Console.WriteLine(string.Join(" | ", Trace.Events));
        }
    }
}
