// An exception passing through a frame that has no handler, under a FIFO TaskScheduler that refuses
// inlining: classic async queues each frame's continuation to the scheduler in turn (the pass-through
// frame rethrows from its own queued step), so work queued in between runs before the catch.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class Fifo : TaskScheduler
{
    private readonly Queue<Task> _q = new();
    public int Queued;
    protected override void QueueTask(Task t) { Queued++; _q.Enqueue(t); }
    protected override bool TryExecuteTaskInline(Task t, bool prev) => false;
    protected override IEnumerable<Task> GetScheduledTasks() => _q;
    public void Pump() { while (_q.Count > 0) TryExecuteTask(_q.Dequeue()); }
}

static class Program
{
    static readonly Fifo S = new();

    static void Later(int n) =>
        Task.Factory.StartNew(() => { Console.WriteLine("other work " + n); if (n > 1) Later(n - 1); },
            CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);

    static async Task Thrower()
    {
        await Task.Yield();
        Later(3);
        throw new InvalidOperationException("boom");
    }

    static async Task PassThrough() => await Thrower();

    static async Task Catches()
    {
        try { await PassThrough(); }
        catch (InvalidOperationException e) { Console.WriteLine("caught " + e.Message); }
    }

    static void Main()
    {
        var t = Task.Factory.StartNew(Catches, CancellationToken.None, TaskCreationOptions.None, S).Unwrap();
        S.Pump();
        Console.WriteLine($"{t.Status} queued={S.Queued}");
    }
}
