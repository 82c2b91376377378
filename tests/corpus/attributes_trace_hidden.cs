// Exception stack traces (file and line stripped) through async methods carrying attributes that
// touch traces: [StackTraceHidden] on a method and on a class, [DebuggerHidden],
// [DebuggerNonUserCode], [DoesNotReturn] on an always-throwing async helper, AggressiveInlining and
// NoInlining, thrown before and after a suspension, caught at the top and rethrown with throw; and
// ExceptionDispatchInfo.Capture(..).Throw().
using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using System.Threading.Tasks;

[StackTraceHidden]
static class Guard
{
    public static async Task<int> Positive(int x)
    {
        await Program.Pause();
        if (x <= 0) throw new ArgumentOutOfRangeException(nameof(x), "must be positive");
        return x;
    }
}

static class Helpers
{
    [StackTraceHidden]
    public static async Task<int> Hidden(int x)
    {
        await Program.Pause();
        return await Guard.Positive(x);
    }

    [DebuggerHidden]
    public static async Task<int> DebuggerHid(int x)
    {
        await Program.Pause();
        return await Hidden(x) + 1;
    }

    [DebuggerNonUserCode]
    public static async Task<int> NonUser(int x) => await DebuggerHid(x) + 1;

    [DoesNotReturn]
    public static async Task Fail(string message)
    {
        await Program.Pause();
        throw new InvalidOperationException(message);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static async Task<int> Inlined(int x)
    {
        if (x == 0) await Fail("zero");
        return x;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<int> NotInlined(int x) => await Inlined(x) * 2;
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static string Frames(Exception e) => string.Join("\n", e.StackTrace!.Split('\n')
        .Select(l => l.Trim())
        .Select(l => l.Contains(" in ") ? l[..l.IndexOf(" in ")] : l)
        .Where(l => l.Length > 0));

    static async Task Report(string name, Func<Task> action)
    {
        try
        {
            await action();
            Console.WriteLine($"{name}: no exception");
        }
        catch (Exception e)
        {
            Console.WriteLine($"{name}: {e.GetType().Name}: {e.Message}");
            Console.WriteLine(Frames(e));
        }
    }

    static async Task Rethrow()
    {
        try
        {
            await Helpers.NonUser(-1);
        }
        catch (ArgumentException)
        {
            await Pause();
            throw;
        }
    }

    static async Task Captured()
    {
        ExceptionDispatchInfo? info = null;
        try
        {
            await Helpers.NotInlined(0);
        }
        catch (Exception e)
        {
            info = ExceptionDispatchInfo.Capture(e);
        }
        await Pause();
        info!.Throw();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            await Report("hidden chain", () => Helpers.NonUser(0));
            await Report("fail", () => Helpers.Fail("direct"));
            await Report("inlined", () => Helpers.NotInlined(0));
            await Report("rethrow", Rethrow);
            await Report("captured", Captured);
            await Report("ok", async () => Console.WriteLine(await Helpers.NonUser(3)));
        }
    }
}
