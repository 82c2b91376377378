// ConfigureAwait(true/false) under a custom single-threaded TaskScheduler: awaits with true come back
// to the scheduler, awaits with false leave it, and a caller awaiting (default true) a callee that
// left the scheduler is back on it; Task.Yield inside the scheduler; Task<T> and ValueTask<T> forms.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class OneThreadScheduler : TaskScheduler
{
    private readonly BlockingCollection<Task> queue = new();
    public readonly Thread Thread;

    public OneThreadScheduler()
    {
        Thread = new Thread(() =>
        {
            foreach (var task in queue.GetConsumingEnumerable())
                TryExecuteTask(task);
        }) { IsBackground = true };
        Thread.Start();
    }

    protected override void QueueTask(Task task) => queue.Add(task);

    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => false;

    protected override IEnumerable<Task> GetScheduledTasks() => queue.ToArray();
}

static class Program
{
    static bool Suspend;
    static OneThreadScheduler Scheduler = null!;

    static string Where() =>
        (TaskScheduler.Current == Scheduler ? "sched" : "nosched") + "/" + (Thread.CurrentThread == Scheduler.Thread ? "own" : "other");

    /// <summary>A task completed on the thread pool, released only after the current scheduler task has ended.</summary>
    static Task<int> Pending(int value)
    {
        if (!Suspend)
            return Task.FromResult(value);
        var source = new TaskCompletionSource<int>();
        WaitCallback release = _ => source.SetResult(value);
        if (TaskScheduler.Current == Scheduler)
            Task.Factory.StartNew(() => ThreadPool.QueueUserWorkItem(release), CancellationToken.None, TaskCreationOptions.None, Scheduler);
        else
            ThreadPool.QueueUserWorkItem(release);
        return source.Task;
    }

    static async Task<int> LeavesScheduler(int v)
    {
        int r = await Pending(v).ConfigureAwait(false);
        return r + (TaskScheduler.Current == Scheduler ? 1000 : 0);
    }

    static async ValueTask<int> VLeavesScheduler(int v)
    {
        return await new ValueTask<int>(Pending(v)).ConfigureAwait(false) * 2;
    }

    static async Task<string> Forms()
    {
        string s = "start " + Where();
        int a = await Pending(1).ConfigureAwait(true);
        s += " | true " + Where() + " " + a;
        await Task.Yield();
        s += " | yield " + Where();
        int b = await LeavesScheduler(2);
        s += " | after callee " + Where() + " " + b;
        int c = await VLeavesScheduler(3);
        s += " | after vcallee " + Where() + " " + c;
        int d = await Pending(4).ConfigureAwait(false);
        s += " | false " + Where() + " " + d;
        int e = await Pending(5);
        s += " | true-after-false " + Where() + " " + e;
        return s;
    }

    static async Task<string> Outer()
    {
        string inner = await Forms();
        return inner + " || outer " + Where();
    }

    static void Main()
    {
        Scheduler = new OneThreadScheduler();
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var task = Task.Factory.StartNew(Outer, CancellationToken.None, TaskCreationOptions.None, Scheduler).Unwrap();
            Console.WriteLine(task.GetAwaiter().GetResult());
        }
    }
}
