// A SynchronizationContext whose Post runs the callback at once, and queues a callback posted while
// one runs, to run it before it returns (as re-entrancy-safe UI dispatchers do), and an awaiter that
// does the same. A method awaiting Task.Yield under it (or the awaiter) twice is resumed at once at
// the first await, inside its chain's registration; its second callback is queued and runs after
// that second registration returned, but still inside the first. Classic async's callers, still
// waiting for the first call to return, find the method complete and go on in their own contexts.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class DrainingContext : SynchronizationContext
{
    [ThreadStatic]
    static Queue<(SendOrPostCallback Callback, object? State)>? queue;

    public static int Queued;

    public override void Post(SendOrPostCallback callback, object? state)
    {
        if (queue is not null)
        {
            queue.Enqueue((callback, state));
            Queued++;
            return;
        }
        queue = new();
        queue.Enqueue((callback, state));
        try
        {
            while (queue.Count > 0)
            {
                var (next, nextState) = queue.Dequeue();
                next(nextState);
            }
        }
        finally
        {
            queue = null;
        }
    }
}

readonly struct DrainingAwaiter : ICriticalNotifyCompletion
{
    [ThreadStatic]
    static Queue<Action>? queue;

    public DrainingAwaiter GetAwaiter() => this;
    public bool IsCompleted => false;
    public void GetResult() { }
    public void OnCompleted(Action continuation) => UnsafeOnCompleted(continuation);

    public void UnsafeOnCompleted(Action continuation)
    {
        if (queue is not null)
        {
            queue.Enqueue(continuation);
            DrainingContext.Queued++;
            return;
        }
        queue = new();
        queue.Enqueue(continuation);
        try
        {
            while (queue.Count > 0)
                queue.Dequeue()();
        }
        finally
        {
            queue = null;
        }
    }
}

static class Program
{
    static readonly AsyncLocal<string?> Value = new();

    static string State() => $"value={Value.Value ?? "-"}";

    static async Task Leaf(string kind, bool newCallee, bool throws)
    {
        if (kind == "post")
            await Task.Yield();
        else
            await new DrainingAwaiter();
        if (newCallee)
            await Callee(kind);
        else if (kind == "post")
            await Task.Yield();
        else
            await new DrainingAwaiter();
        Value.Value = "leaf";
        Console.WriteLine($"  leaf after its second await: {State()}");
        if (throws)
            throw new InvalidOperationException("thrown by leaf");
    }

    static async Task Callee(string kind)
    {
        if (kind == "post")
            await Task.Yield();
        else
            await new DrainingAwaiter();
        Value.Value = "callee";
    }

    static async Task Middle(string kind, bool newCallee, bool throws)
    {
        try
        {
            await Leaf(kind, newCallee, throws);
            Console.WriteLine($"  middle after its await: {State()}");
        }
        catch (InvalidOperationException)
        {
            Console.WriteLine($"  middle caught: {State()}");
        }
    }

    static async Task Outer(string kind, bool suppress, bool newCallee, bool throws)
    {
        Value.Value = "outer";
        if (suppress)
            ExecutionContext.SuppressFlow();
        await Middle(kind, newCallee, throws);
        Console.WriteLine($"  outer after its await: {State()}");
    }

    static void Main()
    {
        foreach (var kind in new[] { "post", "awaiter" })
            foreach (var suppress in new[] { false, true })
                foreach (var newCallee in new[] { false, true })
                    foreach (var throws in new[] { false, true })
                    {
                        Console.WriteLine($"{kind}: suppressed={suppress} new callee={newCallee} throws={throws}");
                        DrainingContext.Queued = 0;
                        Value.Value = null;
                        var previous = SynchronizationContext.Current;
                        SynchronizationContext.SetSynchronizationContext(new DrainingContext());
                        Task task = Outer(kind, suppress, newCallee, throws);
                        SynchronizationContext.SetSynchronizationContext(previous);
                        if (ExecutionContext.IsFlowSuppressed())
                            ExecutionContext.RestoreFlow();
                        Console.WriteLine($"  main: {task.Status} queued={DrainingContext.Queued}");
                    }
    }
}
