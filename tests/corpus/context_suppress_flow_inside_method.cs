// A method that suppresses the ExecutionContext's flow itself, after setting an AsyncLocal, and
// awaits without undoing it: a custom awaiter it awaits sees the method's value with the flow
// suppressed, as classic async registers inside the method; and awaiting a rewritten callee that
// finishes on the thread pool, under a SynchronizationContext, it is sent back to that context and
// continues in the context thread's own ExecutionContext, as classic async's box that captured
// none. Both were edge cases Async2 documented as differing (the outermost caller's values with
// the flow allowed; the context the callee finished in). Deterministic: the context is pumped on
// the main thread, and the gate opens after the caller printed.
using System;
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class Critical : ICriticalNotifyCompletion
{
    public Action? Continuation;
    public bool IsCompleted => false;
    public Critical GetAwaiter() => this;
    public void OnCompleted(Action c) { Console.WriteLine($"  OnCompleted sees {Program.Show()}"); Continuation = c; }
    public void UnsafeOnCompleted(Action c) { Console.WriteLine($"  UnsafeOnCompleted sees {Program.Show()}"); Continuation = c; }
    public void GetResult() { }
}

sealed class QueueContext : SynchronizationContext
{
    public readonly BlockingCollection<(SendOrPostCallback, object?)> Queue = new();
    public override void Post(SendOrPostCallback d, object? s) => Queue.Add((d, s));
}

static class Program
{
    public static readonly AsyncLocal<string> Value = new();
    static Critical Awaitable = new();
    static TaskCompletionSource Gate = new();
    public static string Show() => $"value={Value.Value ?? "-"} suppressed={ExecutionContext.IsFlowSuppressed()} ctx={SynchronizationContext.Current?.GetType().Name ?? "-"}";

    static async Task Suppressing()
    {
        Value.Value = "method";
        ExecutionContext.SuppressFlow();
        await Awaitable;
        Console.WriteLine($"  method resumed {Show()}");
    }

    static async Task Caller()
    {
        Value.Value = "caller";
        await Suppressing();
        Console.WriteLine($"  caller resumed {Show()}");
    }

    static async Task CalleeOnPool()
    {
        await Gate.Task.ConfigureAwait(false);
        Value.Value = "pool";
    }

    static async Task SuppressingOverCallee()
    {
        Value.Value = "method";
        ExecutionContext.SuppressFlow();
        await CalleeOnPool();
        Console.WriteLine($"  method resumed {Show()}");
    }

    static void Main()
    {
        Value.Value = "main";
        Awaitable = new Critical();
        var t = Caller();
        Console.WriteLine($"after the call {Show()}");
        Awaitable.Continuation!();
        t.Wait();
        Console.WriteLine($"done {Show()}");

        var context = new QueueContext();
        SynchronizationContext.SetSynchronizationContext(context);
        Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var t2 = SuppressingOverCallee();
        Console.WriteLine($"after the second call {Show()}");
        Task.Run(() => Gate.SetResult());
        while (!t2.IsCompleted)
            if (context.Queue.TryTake(out var item, 50)) item.Item1(item.Item2);
        Console.WriteLine($"done {Show()}");
    }
}
