// A caller that awaited a rewritten callee under a custom TaskScheduler continues there as classic
// async continues: the scheduler is asked to run the continuation inline (TryExecuteTaskInline)
// when it is current or the callee finished on a pool thread, and queued otherwise. A strict FIFO
// scheduler that refuses inlining runs work queued before the continuation first; a scheduler
// that allows it runs the caller inline on the pool thread.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class OwnThreadScheduler(bool allowsInlining, string name) : TaskScheduler
{
    public int Queued, Inlined;
    private readonly BlockingCollection<Task> _queue = new();

    public void Start() => new Thread(() => { foreach (var task in _queue.GetConsumingEnumerable()) TryExecuteTask(task); }) { IsBackground = true, Name = name }.Start();
    protected override void QueueTask(Task task) { Interlocked.Increment(ref Queued); _queue.Add(task); }
    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued)
    {
        if (!allowsInlining)
            return false;
        Interlocked.Increment(ref Inlined);
        return TryExecuteTask(task);
    }
    protected override IEnumerable<Task> GetScheduledTasks() => _queue.ToArray();
}

static class Program
{
    static string Where() => Thread.CurrentThread.Name ?? (Thread.CurrentThread.IsThreadPoolThread ? "pool" : "other");

    static async Task StrictLeaf(Task gate)
    {
        await gate;
        Console.WriteLine("  leaf resumed");
        _ = Task.Factory.StartNew(() => Console.WriteLine("  work the leaf queued"), CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);
    }

    static async Task StrictCaller(Task gate)
    {
        await StrictLeaf(gate);
        Console.WriteLine("  caller resumed");
    }

    static async Task FriendlyLeaf(Task gate)
    {
        await gate.ConfigureAwait(false);
        Console.WriteLine("  leaf resumed on " + Where());
    }

    static async Task FriendlyCaller(Task gate)
    {
        await FriendlyLeaf(gate);
        Console.WriteLine($"  caller resumed on {Where()}, scheduler kept: {TaskScheduler.Current is OwnThreadScheduler}");
    }

    static async Task Main()
    {
        Console.WriteLine("strict FIFO scheduler:");
        var strict = new OwnThreadScheduler(allowsInlining: false, "strict");
        strict.Start();
        var gate = new TaskCompletionSource();
        var run = Task.Factory.StartNew(() => StrictCaller(gate.Task), CancellationToken.None, TaskCreationOptions.None, strict).Unwrap();
        await Task.Delay(50);
        gate.SetResult();
        await run;
        await Task.Delay(50);

        Console.WriteLine("scheduler that allows inlining, callee finished on the pool:");
        var friendly = new OwnThreadScheduler(allowsInlining: true, "friendly");
        friendly.Start();
        gate = new TaskCompletionSource();
        run = Task.Factory.StartNew(() => FriendlyCaller(gate.Task), CancellationToken.None, TaskCreationOptions.None, friendly).Unwrap();
        await Task.Delay(50);
        await Task.Run(() => gate.SetResult());
        await run;
        Console.WriteLine($"  queued={friendly.Queued} inlined={friendly.Inlined}");
    }
}
