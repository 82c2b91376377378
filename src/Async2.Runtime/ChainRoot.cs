// ChainRoot: the last frame of a suspended chain, owned by the Task thunk that started it.
//
// It is created only when a chain actually suspends (the synchronous path allocates none of
// this). It registers the resumption with whatever the leaf is waiting on, restores the
// ExecutionContext captured at suspension (so AsyncLocal values set before an await are seen
// after it, on whatever thread resumes), runs the Dispatcher, and finally completes the Task
// with the outermost frame's result or exception.
using System.Runtime.CompilerServices;

namespace Async2.Runtime;

internal abstract class ChainRoot : Continuation
{
    private static readonly ContextCallback s_dispatchInContext = static state => ((ChainRoot)state!).Dispatch();

    private Continuation? _head;
    private ExecutionContext? _context;
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
        _head = chain.Head;
        if (Telemetry.IsOn)
            Telemetry.ChainSuspended(chain.Head!, chain.Tail);
        _context = ExecutionContext.Capture();
        Action resume = _resume ??= Resume;
        var current = SynchronizationContext.Current;
        if (current == chain.LeafSynchronizationContext)
        {
            Register(chain.Notifier, chain.NotifierNeedsFlow, resume);
            return;
        }
        SynchronizationContext.SetSynchronizationContext(chain.LeafSynchronizationContext);
        try
        {
            Register(chain.Notifier, chain.NotifierNeedsFlow, resume);
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(current);
        }
    }

    private static void Register(object? notifier, bool needsFlow, Action resume)
    {
        switch (notifier)
        {
            case Task task:
                task.GetAwaiter().UnsafeOnCompleted(resume);
                break;
            case ICriticalNotifyCompletion critical when !needsFlow:
                critical.UnsafeOnCompleted(resume);
                break;
            case INotifyCompletion completion:
                completion.OnCompleted(resume);
                break;
            default:
                throw new InvalidOperationException("Async2: a suspended chain has nothing to wait for.");
        }
    }

    private void Resume()
    {
        if (_context is null)
            Dispatch();
        else
            ExecutionContext.Run(_context, s_dispatchInContext, this);
    }

    private void Dispatch()
    {
        Continuation head = _head!;
        _head = null;
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
