// A callee that awaited inside a task of a custom TaskScheduler is resumed by a task queued to that
// scheduler; after resuming it installs the SynchronizationContext its caller awaited in, and
// returns or throws. The caller then goes on inline, as classic async runs a continuation whose
// context is current: outside any task, so TaskScheduler.Current is the default one there, and the
// tasks the caller starts next run on the thread pool, not on the custom scheduler.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class RunAtOnceScheduler : TaskScheduler
{
    public int Queued;
    protected override void QueueTask(Task task)
    {
        Interlocked.Increment(ref Queued);
        TryExecuteTask(task);
    }
    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => TryExecuteTask(task);
    protected override IEnumerable<Task>? GetScheduledTasks() => null;
}

sealed class CountingContext : SynchronizationContext
{
    public int Posts;
    public override void Post(SendOrPostCallback callback, object? state)
    {
        Interlocked.Increment(ref Posts);
        ThreadPool.UnsafeQueueUserWorkItem(_ =>
        {
            SetSynchronizationContext(this);
            callback(state);
            SetSynchronizationContext(null);
        }, null);
    }
}

static class Program
{
    static readonly CountingContext Context = new();
    static readonly RunAtOnceScheduler Scheduler = new();
    static TaskCompletionSource Gate = new();
    static Thread? Opener;
    static readonly List<string> Seen = new();

    static string State() =>
        $"context={(SynchronizationContext.Current == Context ? "the caller's" : SynchronizationContext.Current is null ? "none" : "other")}"
        + $" scheduler={(TaskScheduler.Current == Scheduler ? "custom" : TaskScheduler.Current == TaskScheduler.Default ? "default" : "other")}"
        + $" onOpener={Thread.CurrentThread == Opener}";

    static async Task<int> Callee(bool throws)
    {
        SynchronizationContext.SetSynchronizationContext(null);
        await Gate.Task;
        SynchronizationContext.SetSynchronizationContext(Context);
        if (throws)
            throw new InvalidOperationException("thrown by the callee");
        return 1;
    }

    static async Task<int> Caller(bool throws)
    {
        SynchronizationContext.SetSynchronizationContext(Context);
        int result;
        try
        {
            result = await Callee(throws);
            Seen.Add($"  caller after the await: {State()}");
        }
        catch (InvalidOperationException e)
        {
            Seen.Add($"  caller caught '{e.Message}': {State()}");
            result = -1;
        }
        var started = Task.Factory.StartNew(() => TaskScheduler.Current == Scheduler ? "custom" : "default");
        Seen.Add($"  a task the caller starts runs on the {started.Result} scheduler");
        return result;
    }

    static void Main()
    {
        foreach (var throws in new[] { false, true })
        {
            Console.WriteLine($"callee throws: {throws}");
            Gate = new TaskCompletionSource();
            Context.Posts = Scheduler.Queued = 0;
            Seen.Clear();
            var task = Task.Factory.StartNew(() => Caller(throws), CancellationToken.None, TaskCreationOptions.None, Scheduler).Unwrap();
            Opener = new Thread(() => Gate.SetResult());
            Opener.Start();
            Opener.Join();
            var result = task.GetAwaiter().GetResult();
            foreach (var line in Seen)
                Console.WriteLine(line);
            Console.WriteLine($"  result={result} posts={Context.Posts} queued to the scheduler={Scheduler.Queued}");
        }
    }
}
