// Core-library members that reach user code though nothing user-written is called directly: a base
// call to a virtual member (Exception.ToString reads the overridden Message), a non-virtual member
// that calls the instance's overrides (AggregateException.Flatten reads Message), an awaiter
// registered by hand (OnCompleted posts to SynchronizationContext.Current), ContinueWith (it
// hands the continuation to TaskScheduler.Current, whose QueueTask may run it inline; with the
// flow suppressed an inline continuation runs in the method's own context), and a static field of
// a type marked [CompilerGenerated] with a static constructor. When that user code changes an
// AsyncLocal inside an awaited method, the caller must not see it after the await.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

class ChattyException : Exception
{
    public override string Message { get { Program.Current.Value = "changed by Message"; return "chatty"; } }

    public async Task<int> Describe() => base.ToString().Length > 0 ? 1 : 0;
}

class ChattyAggregate : AggregateException
{
    public ChattyAggregate() : base("mine", new Exception("inner")) { }

    public override string Message { get { Program.Current.Value = "changed by Message"; return "mine"; } }
}

class RecordingContext : SynchronizationContext
{
    public override void Post(SendOrPostCallback d, object? state) => Program.Current.Value = "changed by Post";
}

class InlineScheduler : TaskScheduler
{
    protected override void QueueTask(Task task)
    {
        Program.Current.Value = "changed by QueueTask";
        TryExecuteTask(task);
    }

    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => TryExecuteTask(task);

    protected override IEnumerable<Task> GetScheduledTasks() => [];
}

[CompilerGenerated]
class MarkedGenerated
{
    public static readonly int Field;

    static MarkedGenerated()
    {
        Program.Current.Value = "changed by the static constructor";
        Field = 1;
    }
}

static class Program
{
    public static readonly AsyncLocal<string> Current = new();

    static async Task<int> Flattened(AggregateException e) => e.Flatten().InnerException is null ? 0 : 1;
    static async Task RegisterYield(Action continuation) => Task.Yield().GetAwaiter().OnCompleted(continuation);
    static async Task RegisterByHand(Task task, Action continuation) => task.GetAwaiter().UnsafeOnCompleted(continuation);
    static async Task RegisterConfigured(Task task, Action continuation) => task.ConfigureAwait(true).GetAwaiter().UnsafeOnCompleted(continuation);
    static async Task Continue(Task task, Action<Task> continuation) => _ = task.ContinueWith(continuation);
    static async Task ContinueInline(Task task, Action<Task> continuation) => await task.ContinueWith(continuation, TaskContinuationOptions.ExecuteSynchronously);
    static async Task<int> ReadMarkedGenerated() => MarkedGenerated.Field;

    static void Report(string what) => Console.WriteLine($"{what}: caller sees {Current.Value}");

    static async Task UnderTheScheduler()
    {
        Current.Value = "caller";
        await Continue(Task.CompletedTask, _ => { });
        Report("ContinueWith under a scheduler");
    }

    static async Task Main()
    {
        Current.Value = "caller";
        await new ChattyException().Describe();
        Report("base.ToString()");

        Current.Value = "caller";
        await Flattened(new ChattyAggregate());
        Report("Flatten");

        SynchronizationContext.SetSynchronizationContext(new RecordingContext());
        Current.Value = "caller";
        await RegisterYield(() => { });
        Report("YieldAwaiter.OnCompleted");
        Current.Value = "caller";
        await RegisterByHand(Task.CompletedTask, () => { });
        Report("TaskAwaiter.UnsafeOnCompleted");
        Current.Value = "caller";
        await RegisterConfigured(Task.CompletedTask, () => { });
        Report("ConfiguredTaskAwaiter.UnsafeOnCompleted");
        SynchronizationContext.SetSynchronizationContext(null);

        await Task.Factory.StartNew(UnderTheScheduler, CancellationToken.None, TaskCreationOptions.None, new InlineScheduler()).Unwrap();

        Action<Task> change = _ => Current.Value = "changed by the continuation";
        Current.Value = "caller";
        await ContinueInline(Task.CompletedTask, change);
        Report("inline ContinueWith");
        using (ExecutionContext.SuppressFlow())
        {
            ContinueInline(Task.CompletedTask, change).GetAwaiter().GetResult();
            Report("inline ContinueWith, flow suppressed");
        }

        Current.Value = "caller";
        await ReadMarkedGenerated();
        Report("static field of a [CompilerGenerated] type");
    }
}
