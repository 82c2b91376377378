// Static constructors touched by async code: a class whose static constructor runs on first access
// from inside an async method (before or after a suspension), a generic class with one static
// constructor per instantiation, a static constructor first run from an async lambda after it
// suspended, a static constructor that throws (TypeInitializationException, then the same failure again),
// and async static methods of a class with a static constructor.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

static class Trace
{
    public static readonly List<string> Events = new();
    public static void Add(string e) => Events.Add(e);
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

    static async Task Main()
    {
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
