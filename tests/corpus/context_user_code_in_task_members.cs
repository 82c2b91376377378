// Task members that run user code on the calling thread: a TaskScheduler's QueueTask and
// TryExecuteTaskInline (Start, RunSynchronously, Wait, Result, ContinueWith with a scheduler) and
// the enumerator of a user sequence (Task.WhenAll(IEnumerable), new AggregateException(IEnumerable)),
// a TimeProvider's CreateTimer (Task.Delay, WaitAsync).
// When that code changes an AsyncLocal or the SynchronizationContext inside an awaited method
// whose only calls are such members, the caller must not see it after the await: classic async
// puts both back when a method returns. Async2 gave these methods no context scope.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

// Runs a task as soon as it is queued, changing both contexts first.
sealed class MeddlingScheduler : TaskScheduler
{
    protected override void QueueTask(Task task)
    {
        Program.Current.Value = "changed by QueueTask";
        SynchronizationContext.SetSynchronizationContext(new SynchronizationContext());
        TryExecuteTask(task);
    }

    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => false;

    protected override IEnumerable<Task>? GetScheduledTasks() => null;
}

// Keeps queued tasks until somebody waits for one, then runs it inline, changing both contexts first.
sealed class DeferringScheduler : TaskScheduler
{
    protected override void QueueTask(Task task) { }

    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued)
    {
        Program.Current.Value = "changed by TryExecuteTaskInline";
        SynchronizationContext.SetSynchronizationContext(new SynchronizationContext());
        return TryExecuteTask(task);
    }

    protected override IEnumerable<Task>? GetScheduledTasks() => null;
}

sealed class MeddlingTimeProvider : TimeProvider
{
    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        Program.Current.Value = "changed by CreateTimer";
        return System.CreateTimer(callback, state, dueTime, period);
    }
}

static class Program
{
    public static readonly AsyncLocal<string> Current = new();

    static async Task StartOn(Task task, TaskScheduler scheduler) => task.Start(scheduler);
    static async Task RunHere(Task task, TaskScheduler scheduler) => task.RunSynchronously(scheduler);
    static async Task<int> ResultOf(Task<int> task) => task.Result;
    static async Task WaitFor(Task task) => task.Wait();
    static async Task ContinueOn(Task task, TaskScheduler scheduler) => await task.ContinueWith(_ => { }, scheduler);
    static async Task WhenAllOf(IEnumerable<Task> tasks) => await Task.WhenAll(tasks);
    static async Task<Exception> Aggregate(IEnumerable<Exception> exceptions) => new AggregateException(exceptions);
    static async Task<Task> StartDelay(TimeSpan delay, TimeProvider time) => Task.Delay(delay, time);
    static async Task<Task> StartWaiting(Task task, TimeSpan timeout, TimeProvider time) => task.WaitAsync(timeout, time);

    static IEnumerable<Task> Meddling()
    {
        Current.Value = "changed by an iterator";
        yield return Task.CompletedTask;
    }

    static IEnumerable<Exception> MeddlingExceptions()
    {
        SynchronizationContext.SetSynchronizationContext(new SynchronizationContext());
        yield return new InvalidOperationException("one");
    }

    static async Task Check(string name, Func<Task> call)
    {
        Current.Value = "caller";
        SynchronizationContext.SetSynchronizationContext(null);
        await call();
        Console.WriteLine($"{name}: {Current.Value}, context {SynchronizationContext.Current?.GetType().Name ?? "none"}");
    }

    static async Task Main()
    {
        var meddling = new MeddlingScheduler();
        var deferring = new DeferringScheduler();
        var answer = Task.Factory.StartNew(() => 42, CancellationToken.None, TaskCreationOptions.None, deferring);
        var work = Task.Factory.StartNew(() => { }, CancellationToken.None, TaskCreationOptions.None, deferring);
        await Check("Start", () => StartOn(new Task(() => { }), meddling));
        await Check("RunSynchronously", () => RunHere(new Task(() => { }), deferring));
        await Check("Result", () => ResultOf(answer));
        await Check("Wait", () => WaitFor(work));
        await Check("ContinueWith", () => ContinueOn(Task.CompletedTask, meddling));
        await Check("WhenAll(iterator)", () => WhenAllOf(Meddling()));
        await Check("WhenAll(Select)", () => WhenAllOf(new[] { 1, 2 }.Select(i => { Current.Value = $"changed by a lambda {i}"; return Task.CompletedTask; })));
        await Check("AggregateException", () => Aggregate(MeddlingExceptions()));
        // Awaited directly, not through a delegate and the method's Task (whose thunk puts the contexts back).
        var time = new MeddlingTimeProvider();
        Current.Value = "caller";
        var delay = await StartDelay(TimeSpan.FromMilliseconds(1), time);
        Console.WriteLine($"Delay(TimeProvider): {Current.Value}");
        await delay;
        var pending = new TaskCompletionSource();
        Current.Value = "caller";
        var waiting = await StartWaiting(pending.Task, TimeSpan.FromMinutes(1), time);
        Console.WriteLine($"WaitAsync(TimeProvider): {Current.Value}");
        pending.SetResult();
        await waiting;
    }
}
