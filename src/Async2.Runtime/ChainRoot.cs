// ChainRoot: the last frame of a suspended chain, owned by the Task thunk that started it.
//
// It is created only when a chain actually suspends (the synchronous path allocates none of
// this). It registers the resumption with whatever the leaf is waiting on, restores the
// ExecutionContext the head frame suspended in (so AsyncLocal values set before an await are seen
// after it, on whatever thread resumes), runs the Dispatcher, and finally completes the Task
// with the outermost frame's result or exception. It is a thread-pool work item itself, so a
// chain that yields with no context to post to is queued as it is (NotifierKind.Yield).
// Keep in sync with AsyncChain.cs (the notifier kinds) and Dispatcher.cs (AwaitNotifier's caller).
using System.Runtime.CompilerServices;

namespace Async2.Runtime;

internal abstract class ChainRoot : Continuation, IThreadPoolWorkItem
{
    private static readonly ContextCallback s_dispatchInContext = static state => ((ChainRoot)state!).Dispatch();

    private Continuation? _head;
    private Action? _resume;

    protected ChainRoot()
    {
        // The root consumes faults as well as results: it is never skipped.
        Flags = ContinuationFlags.HandlesExceptions;
    }

    /// <summary>Called by the thunk when the first synchronous run of the chain suspended.</summary>
    internal void Start(ref AsyncChain chain)
    {
        chain.Link(this);
        AwaitNotifier(ref chain);
    }

    /// <summary>Waits for the chain's notifier, then resumes the chain from its head.</summary>
    internal void AwaitNotifier(ref AsyncChain chain)
    {
        if (_head != chain.Head)
            _head = chain.Head;
        if (Telemetry.IsOn)
            Telemetry.ChainSuspended(chain.Head!, chain.Tail);
        if (!chain.ScopeLeftLeafContext)
        {
            Register(chain.Notifier, chain.NotifierKind);
            return;
        }
        var current = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(chain.LeafSynchronizationContext);
        try
        {
            Register(chain.Notifier, chain.NotifierKind);
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(current);
        }
    }

    private void Register(object? notifier, NotifierKind kind)
    {
        switch (kind)
        {
            case NotifierKind.Task:
                Unsafe.As<Task>(notifier!).GetAwaiter().UnsafeOnCompleted(_resume ??= Resume);
                break;
            case NotifierKind.Yield when ResumeContext.Capture() is null:
                ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
                break;
            case NotifierKind.UnsafeAwaiter or NotifierKind.Yield:
                Unsafe.As<ICriticalNotifyCompletion>(notifier!).UnsafeOnCompleted(_resume ??= Resume);
                break;
            case NotifierKind.FlowingAwaiter:
                Unsafe.As<INotifyCompletion>(notifier!).OnCompleted(_resume ??= Resume);
                break;
            default:
                throw new InvalidOperationException("Async2: a suspended chain has nothing to wait for.");
        }
    }

    void IThreadPoolWorkItem.Execute() => Resume();

    /// <summary>
    /// Runs the dispatch in the ExecutionContext the head frame suspended in, which it resumes in
    /// (so the dispatcher need not put it back for the head), and gives the notifier's thread its
    /// own contexts back afterwards. A head that suspended with flow suppressed runs in the
    /// notifier's, as a classic state machine that captured no context does.
    /// </summary>
    private void Resume()
    {
        if (_head!.SavedExecutionContext is { } executionContext)
            ExecutionContext.Run(executionContext, s_dispatchInContext, this);
        else
            Dispatch();
    }

    private void Dispatch()
    {
        // The head stays recorded (a re-suspending chain usually has the same one): it is not
        // resumed twice, because the notifier calls back once per registration.
        Continuation head = _head!;
        if (!Telemetry.IsOn)
        {
            Dispatcher.Run(head, this);
            return;
        }
        long started = Telemetry.DispatchStarted(head);
        Dispatcher.Run(head, this);
        Telemetry.DispatchEnded(started);
    }
}

/// <summary>Completes a <see cref="Task"/> for a chain whose outermost method returns nothing.</summary>
internal sealed class TaskChainRoot : ChainRoot
{
    private AsyncTaskMethodBuilder _builder = AsyncTaskMethodBuilder.Create();

    internal Task Task => _builder.Task;

    public override void Resume(ref AsyncChain chain)
    {
        if (chain.Fault is not null)
            _builder.SetException(chain.FaultAfterPassThroughFrames().SourceException);
        else
            _builder.SetResult();
    }
}

/// <summary>Completes a <see cref="Task{T}"/> with the outermost frame's result.</summary>
internal sealed class TaskChainRoot<T> : ChainRoot
{
    private AsyncTaskMethodBuilder<T> _builder = AsyncTaskMethodBuilder<T>.Create();

    internal Task<T> Task => _builder.Task;

    public override void Resume(ref AsyncChain chain)
    {
        if (chain.Fault is not null)
            _builder.SetException(chain.FaultAfterPassThroughFrames().SourceException);
        else
            _builder.SetResult(chain.GetResult<T>());
    }
}
