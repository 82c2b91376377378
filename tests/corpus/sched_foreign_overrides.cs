// A caller awaiting a virtual method whose override is not async (it returns a Task or ValueTask
// made elsewhere) under a custom TaskScheduler continues there once, as classic async does: the
// override's task completes on a pool thread, and the scheduler is asked to run the caller (here
// it refuses inlining, so each continuation is one QueueTask). The counts are compared with
// classic's: the caller's continuation must not be queued to the scheduler twice. Every awaited
// task completes only once the scheduler's current step has returned, so each await suspends
// whatever the machine's load.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class OwnThreadScheduler : TaskScheduler
{
    public int Queued;
    private readonly BlockingCollection<Task> _queue = new();
    private TaskCompletionSource _stepEnd;

    public OwnThreadScheduler() => new Thread(() =>
    {
        foreach (var task in _queue.GetConsumingEnumerable())
        {
            TryExecuteTask(task);
            _stepEnd?.SetResult();
            _stepEnd = null;
        }
    }) { IsBackground = true, Name = "scheduler" }.Start();

    /// <summary>Completes when the task the scheduler is running (the caller of this) has returned or suspended.</summary>
    public static Task EndOfStep()
    {
        var scheduler = (OwnThreadScheduler)TaskScheduler.Current;
        return (scheduler._stepEnd ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
    }
    protected override void QueueTask(Task task) { Interlocked.Increment(ref Queued); _queue.Add(task); }
    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => false;
    protected override IEnumerable<Task> GetScheduledTasks() => _queue.ToArray();
}

abstract class Source
{
    public virtual async Task<int> ValueAsync(int x) { await Task.Yield(); return x + 1; }
    public virtual async Task PingAsync() => await Task.Yield();
    public virtual async ValueTask<int> ValueTaskValueAsync(int x) { await Task.Yield(); return x + 1; }
    public virtual async ValueTask ValueTaskPingAsync() => await Task.Yield();
}

// Not async: each override hands back a task that completes on a pool thread.
sealed class PoolSource : Source
{
    public override Task<int> ValueAsync(int x) => OnPool(OwnThreadScheduler.EndOfStep(), x + 2);
    public override Task PingAsync() => OnPool(OwnThreadScheduler.EndOfStep(), 0);
    public override ValueTask<int> ValueTaskValueAsync(int x) => new(ValueAsync(x));
    public override ValueTask ValueTaskPingAsync() => new(PingAsync());

    private static Task<int> OnPool(Task stepEnd, int value) => Task.Run(async () => { await stepEnd; return value; });
}

sealed class AsyncSource : Source
{
    public override async Task<int> ValueAsync(int x) { await OwnThreadScheduler.EndOfStep(); return x + 3; }
}

static class Program
{
    static string Where() => Thread.CurrentThread.Name ?? (Thread.CurrentThread.IsThreadPoolThread ? "pool" : "other");

    static async Task<string> Caller(Source source)
    {
        int a = await source.ValueAsync(1);
        string first = Where();
        await source.PingAsync();
        string second = Where();
        int b = await source.ValueTaskValueAsync(a);
        await source.ValueTaskPingAsync();
        return $"{a} {b}, resumed on {first}, {second}, {Where()}";
    }

    static async Task Main()
    {
        foreach (Source source in new Source[] { new PoolSource(), new AsyncSource() })
        {
            var scheduler = new OwnThreadScheduler();
            string result = await Task.Factory.StartNew(() => Caller(source), CancellationToken.None, TaskCreationOptions.None, scheduler).Unwrap();
            Console.WriteLine($"{source.GetType().Name}: {result}; queued to the scheduler {scheduler.Queued} times");
        }
    }
}
