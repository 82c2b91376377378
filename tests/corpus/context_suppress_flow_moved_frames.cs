// Methods started while the caller suppressed the ExecutionContext's flow (as code starting a
// background loop does) capture no ExecutionContext at their awaits, and one that continues
// elsewhere than where its callee finished runs in the context of the thread it continues on:
// the thread pool's default after ConfigureAwait(false) left a SynchronizationContext, or the
// context's own thread when posted back to it. Async2 ran such a frame in the context of the
// thread its callee finished on instead. Deterministic: the context is pumped by hand on the main
// thread, and gates open only after the caller printed.
using System;
using System.Collections.Concurrent;
using System.Threading;
using System.Threading.Tasks;

sealed class QueueContext : SynchronizationContext
{
    public readonly BlockingCollection<(SendOrPostCallback Callback, object? State)> Queue = new();
    public override void Post(SendOrPostCallback callback, object? state) => Queue.Add((callback, state));

    public void PumpUntil(Task task)
    {
        while (!task.IsCompleted)
            if (Queue.TryTake(out var item, 50))
                item.Callback(item.State);
    }
}

static class Program
{
    static readonly AsyncLocal<string> Value = new();
    static TaskCompletionSource Gate = new();
    static string Show() => $"value={Value.Value ?? "-"} suppressed={ExecutionContext.IsFlowSuppressed()} context={SynchronizationContext.Current?.GetType().Name ?? "-"}";

    // Finishes on the pumped context (Task.Yield posts to it).
    static async Task FinishesOnContext()
    {
        await Task.Yield();
        Console.WriteLine($"  callee resumed {Show()}");
    }

    // Finishes on the thread pool, where the gate is opened.
    static async Task FinishesOnThreadPool()
    {
        await Gate.Task.ConfigureAwait(false);
        Value.Value = "pool";
        Console.WriteLine($"  callee resumed {Show()}");
    }

    static async Task LeavesContext()
    {
        await FinishesOnContext().ConfigureAwait(false);
        Console.WriteLine($"  caller resumed off the context {Show()}");
    }

    static async Task ComesBackToContext()
    {
        await FinishesOnThreadPool();
        Console.WriteLine($"  caller resumed on the context {Show()}");
    }

    static async Task<int> ComesBackWithResult()
    {
        await ComesBackToContext();
        Console.WriteLine($"  outer resumed {Show()}");
        return 1;
    }

    static void Run(string label, Func<Task> start, bool openGate)
    {
        var context = new QueueContext();
        var previous = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(context);
        Value.Value = "main";
        Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var control = ExecutionContext.SuppressFlow();
        var task = start();
        control.Undo();
        Console.WriteLine($"{label}: after the call {Show()}");
        if (openGate)
            Task.Run(() => Gate.SetResult());
        context.PumpUntil(task);
        task.Wait();
        Console.WriteLine($"{label}: done {Show()}");
        SynchronizationContext.SetSynchronizationContext(previous);
    }

    static void Main()
    {
        Run("leaves the context", LeavesContext, openGate: false);
        Run("comes back to the context", ComesBackToContext, openGate: true);
        Run("comes back, two frames", ComesBackWithResult, openGate: true);
    }
}
