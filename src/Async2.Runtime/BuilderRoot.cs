// BuilderRoot: the root of a chain whose first suspension awaited a Task, kept in the box of the
// thunk's AsyncTaskMethodBuilder, as classic async keeps a state machine.
//
// The thunk registers it with the builder as the state machine awaiting the leaf's Task, which
// boxes it: the box is the Task the thunk returns, and the awaited Task calls the box back
// directly. So a chain suspended at a Task surface costs its frames and this box only, no root
// object (bench "AddOne": 184 -> 144 bytes per link; classic async's box is 104). The box runs
// MoveNext in the ExecutionContext current at registration and puts the thread's own back
// afterwards, so MoveNext only switches to the head frame's context when it differs.
//
// It handles the common case only, and hands the chain over to a ChainRoot object (which then
// completes the same Task through a copy of the builder) when it meets anything else:
// - a head that suspended with the ExecutionContext's flow suppressed, or a registration while
//   the flow is suppressed (the box would capture no context, run MoveNext in the notifier's,
//   and not put that back);
// - a dispatch that must continue in another context (ResumeContext.cs).
// Keep in sync with ChainRoot.cs (the same registration and dispatch, as an object),
// Dispatcher.cs (the ends of a dispatch) and TaskThunk.cs (which starts it).
using System.Runtime.CompilerServices;

namespace Async2.Runtime;

internal static class BuilderRoot
{
    /// <summary>Whether a chain's first suspension suits a builder root (else it gets a ChainRoot object).</summary>
    internal static bool Suits(ref AsyncChain chain) =>
        chain.NotifierKind == NotifierKind.Task && chain.Head!.SavedExecutionContext is not null && !ExecutionContext.IsFlowSuppressed();
}

/// <summary>
/// A struct, so that the box and the builder's code are compiled for it alone: over a class they
/// would be the shared generic code, with its dictionary lookups and slower thread-static reads
/// (measured: half as fast again per suspension).
/// </summary>
internal struct BuilderRoot<TBuilder> : IAsyncStateMachine where TBuilder : struct, IRootBuilder
{
    private TBuilder _builder;
    private Continuation _head;

    /// <summary>Called by the thunk when the first synchronous run of the chain suspended (<see cref="BuilderRoot.Suits"/>); the builder's Task is the box.</summary>
    internal static TBuilder Start(ref AsyncChain chain)
    {
        var root = new BuilderRoot<TBuilder> { _builder = default, _head = chain.Head! };
        root.Register(chain.Tail, chain.Notifier, chain.NotifierKind, chain.LeafSynchronizationContext, chain.ScopeLeftLeafContext);
        return root._builder;
    }

    public void MoveNext()
    {
        var executionContext = _head.SavedExecutionContext!;
        if (ExecutionContext.Capture() != executionContext)
            ExecutionContext.Restore(executionContext);
        var ending = new DispatchEnding();
        DispatchEnd end;
        if (!Telemetry.IsOn)
            end = Dispatcher.Run(_head, null, ref ending, rootRestoresContexts: true);
        else
        {
            long started = Telemetry.DispatchStarted(_head);
            end = Dispatcher.Run(_head, null, ref ending, rootRestoresContexts: true);
            Telemetry.DispatchEnded(started);
        }

        switch (end)
        {
            case DispatchEnd.Completed:
                _builder.Complete(ending.Frame!, ending.Fault);
                break;
            case DispatchEnd.Suspended when ending.Frame!.SavedExecutionContext is not null && !ExecutionContext.IsFlowSuppressed():
                if (_head != ending.Frame)
                    _head = ending.Frame;
                Register(ending.Tail, ending.Target, ending.NotifierKind, ending.LeafSynchronizationContext, ending.ScopeLeftLeafContext);
                break;
            case DispatchEnd.Suspended:
                HandOver().AwaitNotifier(in ending);
                break;
            default:
                ResumeContext.ResumeOn(ending.Target!, ending.Frame, HandOver(), ending.Completed, ending.Fault);
                break;
        }
    }

    /// <summary>Registers with what the head awaits (at the first suspension, a Task) through the builder.</summary>
    private void Register(Continuation? tail, object? notifier, NotifierKind kind, SynchronizationContext? leafContext, bool scopeLeftLeafContext)
    {
        if (Telemetry.IsOn)
            Telemetry.ChainSuspended(_head, tail);
        if (!scopeLeftLeafContext)
        {
            Register(notifier, kind);
            return;
        }
        var current = LeafContext.Enter(leafContext);
        try
        {
            Register(notifier, kind);
        }
        finally
        {
            LeafContext.Exit(current);
        }
    }

    private void Register(object? notifier, NotifierKind kind)
    {
        switch (kind)
        {
            case NotifierKind.Task:
                var taskAwaiter = Unsafe.As<Task>(notifier!).GetAwaiter();
                _builder.AwaitUnsafeOnCompleted(ref taskAwaiter, ref this);
                break;
            case NotifierKind.Yield:
                var yieldAwaiter = default(YieldAwaitable.YieldAwaiter);
                _builder.AwaitUnsafeOnCompleted(ref yieldAwaiter, ref this);
                break;
            case NotifierKind.UnsafeAwaiter:
                var awaiter = Unsafe.As<ICriticalNotifyCompletion>(notifier!);
                _builder.AwaitUnsafeOnCompleted(ref awaiter, ref this);
                break;
            case NotifierKind.FlowingAwaiter:
                var flowingAwaiter = Unsafe.As<INotifyCompletion>(notifier!);
                _builder.AwaitOnCompleted(ref flowingAwaiter, ref this);
                break;
            default:
                throw new InvalidOperationException("Async2: a suspended chain has nothing to wait for.");
        }
    }

    /// <summary>A ChainRoot object that takes the chain on; the box is not called back again.</summary>
    private readonly ChainRoot HandOver() => TaskChainRoot<TBuilder>.TakeOver(_builder);

    public void SetStateMachine(IAsyncStateMachine stateMachine)
    {
    }
}
