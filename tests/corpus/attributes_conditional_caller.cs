// [Conditional] methods called with awaited arguments (when the symbol is undefined the whole call,
// awaits in its arguments included, disappears; when defined, the awaits run in order),
// [CallerArgumentExpression] whose argument contains awaits, [CallerMemberName] from async lambdas,
// local functions, properties' async helpers and explicit implementations, and [CallerLineNumber]
// through a chain of async callers.
#define TRACE_ON
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

interface IJob
{
    Task<string> Run(int x);
}

sealed class Job : IJob
{
    async Task<string> IJob.Run(int x)
    {
        await Program.Pause();
        return await Program.Where(x);
    }
}

static class Program
{
    public static bool Suspend;
    static readonly List<string> Log = new();
    static int Counter;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<int> Next(string tag)
    {
        await Pause();
        Log.Add($"next {tag}");
        return ++Counter;
    }

    [Conditional("TRACE_ON")]
    static void Trace(string what, int a, int b) => Log.Add($"trace {what} {a} {b}");

    [Conditional("NEVER_DEFINED")]
    static void Never(string what, int a) => Log.Add($"never {what} {a}");

    [Conditional("TRACE_ON"), Conditional("NEVER_DEFINED")]
    static void Either(int a) => Log.Add($"either {a}");

    static string Check(bool condition, [CallerArgumentExpression(nameof(condition))] string expression = "")
        => $"{expression} -> {condition}";

    static async Task<string> CheckAsync(int value, [CallerArgumentExpression(nameof(value))] string expression = "", [CallerMemberName] string member = "", [CallerLineNumber] int line = 0)
    {
        await Pause();
        return $"{member}@{line - Base}: {expression} = {value}";
    }

    static int Base;

    public static async Task<string> Where(int x, [CallerMemberName] string member = "")
    {
        await Pause();
        return $"{member}({x})";
    }

    static int Value
    {
        get => ValueAsync().GetAwaiter().GetResult();
    }

    static async Task<int> ValueAsync([CallerMemberName] string member = "")
    {
        Log.Add($"value from {member}");
        return member.Length;
    }

    static async Task<string> Scenario()
    {
        Log.Clear();
        Counter = 0;
        Trace("first", await Next("a"), await Next("b"));
        Never("skipped", await Next("never"));
        Either(await Next("either"));
        Trace("nested", await Next("c") + await Next("d"), Counter);
        int before = Counter;
        Never($"interp {await Next("interp")}", before);
        var results = new List<string>
        {
            Check(await Next("check") > 3),
            Check(await Next("x") is var n && n % 2 == 0),
            await CheckAsync(await Next("y") * 10),
            await CheckAsync((await Next("z")) + (Suspend ? 1 : 0)),
            await Where(await Next("w")),
            await ((IJob)new Job()).Run(7),
        };
        Func<Task<string>> lambda = async () => await Where(await Next("lambda"));
        results.Add(await lambda());
        async Task<string> Local(int k) => await Where(k + await Next("local"));
        results.Add(await Local(100));
        results.Add($"prop {Value}");
        Debug.Assert(await Next("assert") > 0, "never fails");
        return string.Join("\n", results) + "\n" + string.Join(" | ", Log) + $"\ncounter={Counter}";
    }

    static async Task Main()
    {
        Base = 0;
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Scenario());
        }
    }
}
