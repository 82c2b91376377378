// Trace lines and columns for the statement after awaits that are not rewritten calls:
// Task.FromResult, Task.Run, TaskCompletionSource, ValueTask from a source, Task.WhenAll,
// ConfigureAwait, custom awaitables (struct and class awaiters, extension GetAwaiter), each
// followed by a throwing statement or kept on the stack, and faults of the awaited Task itself.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Text.RegularExpressions;
using System.Threading.Tasks;

readonly struct Ready<T>
{
    private readonly T _value;
    public Ready(T value) { _value = value; }
    public ReadyAwaiter<T> GetAwaiter() => new ReadyAwaiter<T>(_value);
}

readonly struct ReadyAwaiter<T> : ICriticalNotifyCompletion
{
    private readonly T _value;
    public ReadyAwaiter(T value) { _value = value; }
    public bool IsCompleted => !Program.Suspend;
    public T GetResult() => _value;
    public void OnCompleted(Action continuation) => Task.Run(continuation);
    public void UnsafeOnCompleted(Action continuation) => Task.Run(continuation);
}

sealed class Later
{
    public int Value;
    public LaterAwaiter GetAwaiter() => new LaterAwaiter(this);
}

sealed class LaterAwaiter : INotifyCompletion
{
    private readonly Later _owner;
    public LaterAwaiter(Later owner) { _owner = owner; }
    public bool IsCompleted => !Program.Suspend;
    public void OnCompleted(Action continuation) => ThreadPoolQueue(continuation);
    static void ThreadPoolQueue(Action a) => Task.Run(a);
    public int GetResult()
    {
        if (_owner.Value < 0) throw new ArgumentOutOfRangeException("Value", "negative in GetResult");
        return _owner.Value;
    }
}

static class TimeSpanAwaitExtensions
{
    public static TaskAwaiter<int> GetAwaiter(this int value) => Program.Bridge(value).GetAwaiter();
}

static class Program
{
    public static bool Suspend;

    public static Task<int> Bridge(int v)
    {
        if (!Suspend) return Task.FromResult(v);
        return Task.Run(() => v);
    }

    static Task<int> Completion(int v)
    {
        var tcs = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        if (Suspend) Task.Run(() => tcs.SetResult(v)); else tcs.SetResult(v);
        return tcs.Task;
    }

    static Task<int> Faulted(string why)
    {
        if (!Suspend) return Task.FromException<int>(new FormatException(why));
        return Task.Run(new Func<int>(() => throw new FormatException(why)));
    }

    static ValueTask<int> Vt(int v) => Suspend ? new ValueTask<int>(Task.Run(() => v)) : new ValueTask<int>(v);

    static void Check(int v) { if (v > 0) throw new InvalidOperationException("bad " + v); }
    static void Use(int v) { Console.WriteLine("use " + v); }

    static readonly Regex Location = new(@" in (?:.*[/\\])?([^/\\]+):line (\d+)");

    static void Show(string title, Exception e)
    {
        Console.WriteLine($"[{title}] {e.GetType().Name}: {e.Message}");
        foreach (var raw in e.ToString().Split('\n').Skip(1))
        {
            var line = raw.TrimEnd('\r');
            if (line.Contains("b__")) continue;
            Console.WriteLine(Location.Replace(line, " in $1:$2"));
        }
        var frames = new StackTrace(e, true).GetFrames()
            .Where(f => f.GetFileName() != null)
            .Select(f => $"{Path.GetFileName(f.GetFileName())}:{f.GetFileLineNumber()}:{f.GetFileColumnNumber()}");
        Console.WriteLine("  cols: " + string.Join(" | ", frames));
    }

    static async Task Run(string title, Func<Task> action)
    {
        try
        {
            await action();
            Console.WriteLine($"[{title}] no exception");
        }
        catch (Exception e)
        {
            Show(title, e);
        }
    }

    static async Task<int> FromBridge()
    {
        int a = await Bridge(3);
        Check(a);
        return a;
    }

    static async Task<int> FromBridgeKept()
    {
        int a = await Bridge(3);
        Check(a - 3);
        int b = await Bridge(4);
        Check(a + b);
        return a + b + await Bridge(1);
    }

    static async Task<int> FromCompletion()
    {
        var x = await Completion(5);
        Use(x);
        Check(x);
        return x;
    }

    static async Task<int> ConfigureAwaitFalse()
    {
        var x = await Bridge(6).ConfigureAwait(false);
        Check(x);
        return x;
    }

    static async Task<int> ValueTaskBridge()
    {
        var arr = new int[2];
        arr[1] += await Vt(7);
        Check(arr[1]);
        return 0;
    }

    static async Task<int> WhenAllThen()
    {
        var all = await Task.WhenAll(Bridge(1), Completion(2));
        Check(all[0] + all[1]);
        return 0;
    }

    static async Task<int> FaultedTask()
    {
        Use(await Bridge(1));
        var x = await Faulted("faulted task");
        return x;
    }

    static async Task<int> FaultedTaskMultiline()
    {
        var x = Math.Max(
            await Bridge(1),
            await Faulted("multi"));
        return x;
    }

    static async Task<int> StructAwaiter()
    {
        int a = await new Ready<int>(8);
        Check(a);
        return a;
    }

    static async Task<int> StructAwaiterKept()
    {
        int a = await new Ready<int>(0);
        Check(a);
        int b = await new Ready<int>(9);
        Check(a + b);
        return a + b;
    }

    static async Task<int> ClassAwaiterThrowsInGetResult()
    {
        await Task.CompletedTask;
        var later = new Later { Value = -1 };
        int v = await later;
        return v;
    }

    static async Task<int> ClassAwaiterThenThrow()
    {
        var later = new Later { Value = 10 };
        int v = await later + await later;
        Check(v);
        return v;
    }

    static async Task<int> ExtensionAwaiter()
    {
        int v = await 11;
        Check(v);
        return v;
    }

    static async Task<int> YieldThenThrow()
    {
        await Task.Yield();
        Check(12);
        return 0;
    }

    static async Task<int> DelayThenIndex()
    {
        int[] arr = await Bridge(0) == 0 ? new int[1] : new int[2];
        Check(arr.Length);
        return 0;
    }

    static async Task<string> CoalesceBridge()
    {
        string? s = Suspend ? await Task.Run(() => (string?)null) : await Task.FromResult<string?>(null);
        return s ?? throw new InvalidOperationException("null from bridge");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"===== suspend={suspend}");
            await Run("bridge", FromBridge);
            await Run("bridge kept", FromBridgeKept);
            await Run("completion", FromCompletion);
            await Run("configure await false", ConfigureAwaitFalse);
            await Run("when all", WhenAllThen);
            await Run("faulted task", FaultedTask);
            await Run("faulted multiline", FaultedTaskMultiline);
            await Run("struct awaiter", StructAwaiter);
            await Run("class awaiter get result", ClassAwaiterThrowsInGetResult);
            await Run("class awaiter then", ClassAwaiterThenThrow);
            await Run("extension awaiter", ExtensionAwaiter);
            await Run("yield then throw", YieldThenThrow);
            await Run("conditional then", DelayThenIndex);
            await Run("coalesce bridge", CoalesceBridge);
        }
    }
}
