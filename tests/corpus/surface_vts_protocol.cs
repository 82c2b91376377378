// The IValueTaskSource protocol as a source observes it when rewritten code awaits its ValueTasks:
// how often GetStatus is called, the flags OnCompleted receives (UseSchedulingContext,
// FlowExecutionContext), and what the source sees while being called (the SynchronizationContext,
// whether flow is suppressed, an AsyncLocal the awaiting method set), for plain awaits, ConfigureAwait
// (false), loops re-awaiting the same source (completed inline from inside the source), awaits under a
// single-threaded SynchronizationContext, awaits with ExecutionContext flow suppressed at the call,
// a wrapper awaiter that only implements INotifyCompletion, and nested callers.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

sealed class LoggingSource : IValueTaskSource<int>, IValueTaskSource
{
    private ManualResetValueTaskSourceCore<int> core;
    public readonly List<string> Log = new();
    public bool Waiting;
    public static readonly AsyncLocal<string?> Ambient = new();

    public LoggingSource(bool async = false) => core.RunContinuationsAsynchronously = async;

    static string Where() =>
        $"{SynchronizationContext.Current?.GetType().Name ?? "-"}/{(TaskScheduler.Current == TaskScheduler.Default ? "def" : "custom")}/{(ExecutionContext.IsFlowSuppressed() ? "suppressed" : "flows")}/{Ambient.Value ?? "-"}";

    public ValueTask<int> Next(int? now = null)
    {
        if (core.GetStatus(core.Version) != ValueTaskSourceStatus.Pending)
            core.Reset();
        if (now is { } v)
            core.SetResult(v);
        return new ValueTask<int>(this, core.Version);
    }

    public void Complete(int v)
    {
        Log.Add($"complete {v}");
        Waiting = false;
        core.SetResult(v);
    }

    public ValueTaskSourceStatus GetStatus(short token)
    {
        var s = core.GetStatus(token);
        Log.Add($"GetStatus={s} @{Where()}");
        return s;
    }

    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
    {
        Log.Add($"OnCompleted({flags}) @{Where()}");
        Waiting = true;
        core.OnCompleted(continuation, state, token, flags);
    }

    public int GetResult(short token)
    {
        var r = core.GetResult(token);
        Log.Add($"GetResult={r} @{Where()}");
        return r;
    }

    void IValueTaskSource.GetResult(short token) => GetResult(token);

    public string Drain()
    {
        var s = string.Join(" | ", Log);
        Log.Clear();
        return s;
    }
}

// An awaitable over a ValueTask whose awaiter only implements INotifyCompletion (so the builder flows
// the ExecutionContext itself and the source is asked to flow it too).
readonly struct OnlyNotify(ValueTask<int> task)
{
    public Awaiter GetAwaiter() => new(task.GetAwaiter());
    public readonly struct Awaiter(ValueTaskAwaiter<int> inner) : INotifyCompletion
    {
        public bool IsCompleted => inner.IsCompleted;
        public void OnCompleted(Action continuation) => inner.OnCompleted(continuation);
        public int GetResult() => inner.GetResult();
    }
}

static class Program
{
    static async Task<int> Plain(LoggingSource src)
    {
        LoggingSource.Ambient.Value = "plain";
        var r = await src.Next();
        return r + 1;
    }

    static async Task<int> NoContext(LoggingSource src)
    {
        LoggingSource.Ambient.Value = "caf";
        var r = await src.Next().ConfigureAwait(false);
        return r + 1;
    }

    static async Task<int> Loop(LoggingSource src, int n)
    {
        int sum = 0;
        for (int i = 0; i < n; i++)
        {
            LoggingSource.Ambient.Value = $"loop{i}";
            sum += await src.Next();
        }
        return sum;
    }

    static async Task<int> Wrapped(LoggingSource src)
    {
        LoggingSource.Ambient.Value = "wrapped";
        return await new OnlyNotify(src.Next());
    }

    static async ValueTask<int> Inner(LoggingSource src)
    {
        LoggingSource.Ambient.Value = "inner";
        return await src.Next() * 10;
    }

    static async Task<int> Outer(LoggingSource src)
    {
        LoggingSource.Ambient.Value = "outer";
        var r = await Inner(src);
        return r + (LoggingSource.Ambient.Value == "outer" ? 1 : -1000);
    }

    static async Task<int> SyncDone(LoggingSource src)
    {
        LoggingSource.Ambient.Value = "sync";
        return await src.Next(now: 7) + await src.Next(now: 8);
    }

    // Drives the task: completes the source each time something waits on it.
    static async Task<int> Drive(LoggingSource src, Task<int> t, bool yieldBetween)
    {
        int v = 1;
        while (!t.IsCompleted)
        {
            if (src.Waiting)
                src.Complete(v++);
            else if (!yieldBetween)
                throw new InvalidOperationException("nothing waits");
            if (yieldBetween)
                await Task.Yield();
        }
        return await t;
    }

    static async Task Scenarios(string where, bool yieldBetween)
    {
        foreach (var (name, start) in new (string, Func<LoggingSource, Task<int>>)[]
        {
            ("plain", Plain), ("caf", NoContext), ("loop", s => Loop(s, 3)), ("wrapped", Wrapped), ("nested", Outer), ("sync", SyncDone),
        })
        {
            var src = new LoggingSource();
            var t = start(src);
            var after = src.Drain();
            var r = await Drive(src, t, yieldBetween);
            Console.WriteLine($"[{where}] {name} = {r}\n   at call: {after}\n   later: {src.Drain()}");
        }
        // Flow suppressed at the call.
        {
            var src = new LoggingSource();
            Task<int> t;
            using (ExecutionContext.SuppressFlow())
                t = Plain(src);
            var after = src.Drain();
            var r = await Drive(src, t, yieldBetween);
            Console.WriteLine($"[{where}] suppressed = {r}\n   at call: {after}\n   later: {src.Drain()}");
        }
    }

    static async Task Main()
    {
        await Scenarios("main", yieldBetween: false);
        var loop = new SingleThreadLoop();
        loop.RunUntilComplete(() => Scenarios("loop", yieldBetween: true));
        loop.Stop();
    }
}
