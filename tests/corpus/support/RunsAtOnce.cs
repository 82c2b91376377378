// Compiled into every corpus and expected-transcript program: an awaiter, a SynchronizationContext
// and a TaskScheduler that each run the continuation or task they are handed at once, on the calling
// thread, inside the call (OnCompleted, Post, QueueTask), so an awaiting method is resumed inside its
// own await's registration.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

readonly struct AtOnceAwaiter : ICriticalNotifyCompletion
{
    public AtOnceAwaiter GetAwaiter() => this;
    public bool IsCompleted => false;
    public void GetResult() { }
    public void OnCompleted(Action continuation) => continuation();
    public void UnsafeOnCompleted(Action continuation) => continuation();
}

sealed class AtOncePostContext : SynchronizationContext
{
    public override void Post(SendOrPostCallback callback, object? state) => callback(state);
}

sealed class AtOnceScheduler : TaskScheduler
{
    protected override void QueueTask(Task task) => TryExecuteTask(task);
    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => TryExecuteTask(task);
    protected override IEnumerable<Task>? GetScheduledTasks() => null;
}
