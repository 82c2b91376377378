// A TaskScheduler that runs every queued task at once on the queuing thread (ParallelExtensionsExtras'
// CurrentThreadTaskScheduler), under a FIFO loop context: an async lambda started on it yields to
// the loop (the context wins), and a method that clears the context and yields under it resumes
// inside its own await, completing the Unwrap proxy before the awaiting caller on the loop suspended.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class Loop : SynchronizationContext
{
    private readonly Queue<(SendOrPostCallback, object?)> _q = new();
    public int Posted;
    public override void Post(SendOrPostCallback d, object? s) { Posted++; _q.Enqueue((d, s)); }
    public void Pump()
    {
        SetSynchronizationContext(this);
        while (_q.Count > 0) { var (d, s) = _q.Dequeue(); d(s); }
        SetSynchronizationContext(null);
    }
}

sealed class CurrentThreadTaskScheduler : TaskScheduler
{
    protected override void QueueTask(Task task) => TryExecuteTask(task);
    protected override bool TryExecuteTaskInline(Task task, bool prev) => TryExecuteTask(task);
    protected override IEnumerable<Task> GetScheduledTasks() => Array.Empty<Task>();
}

static class Program
{
    static readonly Loop L = new();
    static readonly CurrentThreadTaskScheduler Sync = new();

    static async Task Leaf()
    {
        L.Post(_ => Console.WriteLine("other work"), null);
        await Task.Factory.StartNew(async () =>
        {
            await Task.Yield();
            Console.WriteLine("inner resumed");
        }, CancellationToken.None, TaskCreationOptions.None, Sync).Unwrap();
        Console.WriteLine("leaf resumed");
    }

    static async Task Yielder()
    {
        SynchronizationContext.SetSynchronizationContext(null);
        await Task.Yield();
        Console.WriteLine("yielder resumed");
    }

    static async Task Outer()
    {
        await Leaf();
        Console.WriteLine("outer resumed on " + (SynchronizationContext.Current == L ? "loop" : "other"));
        L.Post(_ => Console.WriteLine("other work 2"), null);
        await Task.Factory.StartNew(Yielder, CancellationToken.None, TaskCreationOptions.None, Sync).Unwrap();
        Console.WriteLine("outer resumed again on " + (SynchronizationContext.Current == L ? "loop" : "other"));
    }

    static void Main()
    {
        Task? t = null;
        L.Post(_ => t = Outer(), null);
        L.Pump();
        Console.WriteLine($"{t!.Status} posted={L.Posted}");
    }
}
