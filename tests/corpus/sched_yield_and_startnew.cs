// TaskScheduler.Current inside rewritten methods run by Task.Factory.StartNew on a custom scheduler:
// Task.Yield and plain awaits come back to it, callees see it too, TaskCreationOptions.HideScheduler
// makes nested StartNew use the default scheduler, a nested StartNew without it inherits the custom
// one, and ConfigureAwait(false) leaves it; every check prints true/false.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class QueueScheduler : TaskScheduler
{
    private readonly BlockingCollection<Task> queue = new();
    public readonly Thread Thread;
    public int Executed;

    public QueueScheduler()
    {
        Thread = new Thread(() =>
        {
            foreach (var task in queue.GetConsumingEnumerable())
            {
                Interlocked.Increment(ref Executed);
                TryExecuteTask(task);
            }
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
    static QueueScheduler Scheduler = null!;

    static string Here => (TaskScheduler.Current == Scheduler && Thread.CurrentThread == Scheduler.Thread).ToString().ToLowerInvariant();

    static async Task<string> Callee()
    {
        string s = "callee start " + Here;
        if (Suspend) await Task.Yield();
        s += ", after yield " + Here;
        if (Suspend) await Task.Delay(1);
        return s + ", after delay " + Here;
    }

    static async Task<string> Body()
    {
        string s = "body " + Here;
        s += "\n" + await Callee();
        s += "\nafter callee " + Here;
        string nested = await Task.Factory.StartNew(() => "nested inherits " + Here).ConfigureAwait(true);
        s += "\n" + nested;
        string hidden = await Task.Factory.StartNew(() => "hidden scheduler sees custom " + Here,
            CancellationToken.None, TaskCreationOptions.HideScheduler, TaskScheduler.Current);
        s += "\n" + hidden + ", back " + Here;
        if (Suspend) await CompletedOnceSuspended().ConfigureAwait(false);
        s += "\nafter ConfigureAwait(false) on scheduler " + (Suspend ? Here + " (false expected)" : Here);
        return s;
    }

    // Completed by a task queued to this scheduler, so only once the awaiting method has suspended
    // and given the scheduler's thread back (a Task.Delay(1) could be over before the await on a
    // loaded machine, and then nothing suspends); its continuations run asynchronously, so one
    // that did not capture the scheduler continues on the thread pool.
    static Task CompletedOnceSuspended()
    {
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Task.Factory.StartNew(() => done.SetResult(), CancellationToken.None, TaskCreationOptions.None, Scheduler);
        return done.Task;
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Scheduler = new QueueScheduler();
            Console.WriteLine($"-- suspend={suspend}");
            var task = Task.Factory.StartNew(Body, CancellationToken.None, TaskCreationOptions.None, Scheduler).Unwrap();
            Console.WriteLine(task.GetAwaiter().GetResult());
        }
    }
}
