// TaskThunk: async1 -> async2. Every rewritten method M keeps its name and signature and becomes
// a thunk over its async2 variant; the rewriter emits (Async2.Rewriter/Rewrite/TaskThunkEmitter.cs):
//
//     ThunkScope scope = ThunkScope.Enter();     // only where M's body may change a context (ThunkScope)
//     try   { return TaskThunk.Complete(M'(args, ref chain), ref chain, ref scope); }
//     catch (Exception e) { return TaskThunk.Fail(e, ref scope); }
//
// Complete returns a completed task when the variant finished synchronously (no allocation for
// ValueTask, the BCL's cached tasks where Task.FromResult has them) and otherwise hands the chain
// to a root (BuilderRoot.cs, ChainRoot.cs). Exceptions become faulted tasks, OperationCanceledException a canceled one,
// exactly as AsyncTaskMethodBuilder does for classic async. Names are looked up by the rewriter.
using System.ComponentModel;
using System.Runtime.CompilerServices;

namespace Async2.Runtime;

[EditorBrowsable(EditorBrowsableState.Never)]
public static class TaskThunk
{
    public static Task CompleteTask(ref AsyncChain chain, ref ThunkScope scope)
    {
        Task task = chain.IsSuspending ? Suspend(ref chain) : Task.CompletedTask;
        scope.Exit();
        return task;
    }

    public static Task<T> CompleteTask<T>(T result, ref AsyncChain chain, ref ThunkScope scope)
    {
        Task<T> task = chain.IsSuspending ? Suspend<T>(ref chain) : Task.FromResult(result);
        scope.Exit();
        return task;
    }

    public static ValueTask CompleteValueTask(ref AsyncChain chain, ref ThunkScope scope)
    {
        ValueTask task = chain.IsSuspending ? new ValueTask(Suspend(ref chain)) : default;
        scope.Exit();
        return task;
    }

    public static ValueTask<T> CompleteValueTask<T>(T result, ref AsyncChain chain, ref ThunkScope scope)
    {
        ValueTask<T> task = chain.IsSuspending ? new ValueTask<T>(Suspend<T>(ref chain)) : new ValueTask<T>(result);
        scope.Exit();
        return task;
    }

    public static Task FailTask(Exception exception, ref ThunkScope scope)
    {
        scope.Exit();
        var builder = AsyncTaskMethodBuilder.Create();
        builder.SetException(exception);
        return builder.Task;
    }

    public static Task<T> FailTask<T>(Exception exception, ref ThunkScope scope)
    {
        scope.Exit();
        var builder = AsyncTaskMethodBuilder<T>.Create();
        builder.SetException(exception);
        return builder.Task;
    }

    public static ValueTask FailValueTask(Exception exception, ref ThunkScope scope) =>
        new(FailTask(exception, ref scope));

    public static ValueTask<T> FailValueTask<T>(Exception exception, ref ThunkScope scope) =>
        new(FailTask<T>(exception, ref scope));

    // The Task is read after Start, which creates it (the builder's box, or a promise).
    private static Task Suspend(ref AsyncChain chain) =>
        BuilderRoot.Suits(ref chain)
            ? BuilderRoot<VoidTaskBuilder>.Start(ref chain).Task
            : TaskChainRoot<VoidTaskBuilder>.Start(ref chain).Builder.Task;

    private static Task<T> Suspend<T>(ref AsyncChain chain) =>
        BuilderRoot.Suits(ref chain)
            ? BuilderRoot<TaskBuilder<T>>.Start(ref chain).Task
            : TaskChainRoot<TaskBuilder<T>>.Start(ref chain).Builder.Task;
}

/// <summary>
/// Saves the caller's ExecutionContext and SynchronizationContext on entry to a Task thunk and
/// puts them back on exit, so code calling a rewritten method through its Task surface never
/// sees changes the method made to them (seed 002: thunks always save and restore both).
/// Every async2 variant brackets its body with one too (compatible context mode), so a caller
/// awaiting it directly does not see them either, as with classic async.
/// A thunk over a method whose body cannot change either context (ContextScopeEmitter.MayChangeContexts in
/// the rewriter) does not enter one: its default scope restores nothing, and costs no
/// thread-static read.
/// </summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public struct ThunkScope
{
    private ExecutionContext? _executionContext;
    private SynchronizationContext? _synchronizationContext;

    /// <summary>
    /// Whether the scope was entered with the ExecutionContext's flow suppressed (ExecutionContext.SuppressFlow,
    /// when a caller starts background work): the context holds AsyncLocal values all the same, which the
    /// method may change, but <see cref="ExecutionContext.Capture"/> gives none to put back.
    /// </summary>
    private bool _flowSuppressed;

    /// <summary>
    /// Whether the scope puts the contexts back: not for a default scope, nor for a variant's scope
    /// left to the Task thunk that called it (<see cref="EnterVariant"/>).
    /// </summary>
    private bool _restores;

    /// <summary>
    /// Whether the scope, entered by a frame the dispatcher resumed, leaves both contexts to the
    /// dispatcher when the frame returns or throws (<see cref="ScopeLending.ContextsOnCompletion"/>).
    /// </summary>
    private bool _completionLeavesContexts;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ThunkScope Enter() => EnterOn(thread: null);

    /// <param name="thread">The current thread, if the caller has it (<see cref="ThreadContexts"/>).</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ThunkScope EnterOn(Thread? thread)
    {
        var (executionContext, flowSuppressed) = ThreadExecutionContext.Capture(thread);
        return new()
        {
            _executionContext = executionContext,
            _flowSuppressed = flowSuppressed,
            _synchronizationContext = ThreadContexts.SynchronizationContextOf(thread),
            _restores = true,
        };
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly void Exit()
    {
        if (!_restores)
            return;
        if (SynchronizationContext.Current != _synchronizationContext)
            SynchronizationContext.SetSynchronizationContext(_synchronizationContext);
        RestoreExecutionContext(thread: null);
    }

    /// <summary>
    /// <see cref="Enter"/> for a variant's scope. Called by a Task thunk (which saves and restores
    /// both contexts around the call and catches everything the variant throws, so no filter can
    /// see the variant's contexts), the variant leaves the work to it: the thunk marks the chain
    /// (<see cref="AsyncChain.LendContextScope"/>) and the first scope entered takes the mark, so
    /// the variants it calls keep their own scopes. Saves four thread-static reads per call.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ThunkScope EnterVariant(ref AsyncChain chain)
    {
        var lending = chain.ScopeLending;
        if (lending == ScopeLending.None)
            return EnterOn(chain.Thread);
        chain.ScopeLending = ScopeLending.None;
        if (lending == ScopeLending.Contexts)
            return default;
        var scope = EnterOn(chain.Thread);
        scope._completionLeavesContexts = true;
        return scope;
    }

    /// <summary>
    /// <see cref="Exit"/> for a variant's scope, on its way out by return, suspension or exception. When it
    /// puts back the caller's SynchronizationContext while the chain suspends, the first scope to
    /// do so records the leaf's (<see cref="AsyncChain.ScopeLeftLeafContext"/>), under which the
    /// root registers with the notifier. The caller's ExecutionContext it leaves to the root, which
    /// puts it back once it has registered (<see cref="AsyncChain.ExecutionContextAfterRegistration"/>),
    /// unless the scope was entered with the flow suppressed: that one puts its caller's back at once,
    /// over what the scopes below left to the root. A resumed frame's scope leaves both contexts to
    /// the dispatcher when the frame returns or throws (<see cref="ScopeLending.ContextsOnCompletion"/>).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly void ExitVariant(ref AsyncChain chain)
    {
        if (!_restores || (_completionLeavesContexts && chain.Head is null))
            return;
        var current = ThreadContexts.SynchronizationContextOf(chain.Thread);
        if (current != _synchronizationContext)
        {
            if (chain.Head is not null && !chain.ScopeLeftLeafContext)
            {
                chain.LeafSynchronizationContext = current;
                chain.ScopeLeftLeafContext = true;
            }
            SynchronizationContext.SetSynchronizationContext(_synchronizationContext);
            chain.ForgetResumeContext();
        }
        if (chain.Head is not null && !_flowSuppressed)
            chain.LeaveExecutionContextAfterRegistration(_executionContext!);
        else
        {
            // The first such scope of a suspending chain leaves the leaf's values and flow state, in which the root registers.
            if (chain.Head is not null && !chain.ScopeLeftLeafExecutionContext)
                chain.LeafExecutionContext = ThreadExecutionContext.Capture(chain.Thread);
            if (!RestoreExecutionContext(chain.Thread))
                return;
            chain.ForgetExecutionContext();
            if (chain.Head is not null)
            {
                chain.ScopeLeftLeafExecutionContext = true;
                // The callers' context now on the thread is the one it keeps, not one a scope below left for after the registration.
                chain.ExecutionContextAfterRegistration = null;
            }
        }
    }

    /// <summary>
    /// The filter of a variant's scope, in the runtime's first pass over an exception leaving the
    /// variant: whether the contexts differ from those the scope was entered in, so that a caller's
    /// exception filter would see the variant's. Only then is the exception caught and rethrown
    /// once they are put back; otherwise it passes on untouched (a rethrow costs a second throw,
    /// and Mono gives the rethrowing frame the rethrow's line). Conservatively true while flow is
    /// suppressed, where the context object itself cannot be compared.
    /// </summary>
    public readonly bool ChangedContexts() =>
        _restores && !_completionLeavesContexts
        && (_flowSuppressed || SynchronizationContext.Current != _synchronizationContext || ExecutionContext.Capture() != _executionContext);

    /// <summary>Puts back the ExecutionContext the scope was entered in; whether it had changed.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly bool RestoreExecutionContext(Thread? thread) => new ThreadExecutionContext(_executionContext!, _flowSuppressed).PutBack(thread);
}

/// <summary>
/// A thread's ExecutionContext and whether its flow is suppressed, for what must be put back as it
/// was, flow state included: a scope entered with the flow suppressed, and the leaf's context that
/// the root registers in (<see cref="AsyncChain.LeafExecutionContext"/>).
/// </summary>
internal readonly record struct ThreadExecutionContext(ExecutionContext Values, bool FlowSuppressed)
{
    /// <param name="thread">The current thread, if the caller has it (<see cref="ThreadContexts"/>).</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static ThreadExecutionContext Capture(Thread? thread) =>
        ThreadContexts.Capture(thread) is { } values ? new(values, FlowSuppressed: false) : new(CaptureWhileFlowSuppressed(), FlowSuppressed: true);

    /// <summary>Puts these values and this flow state on the thread; whether it had others.</summary>
    /// <param name="thread">The current thread, if the caller has it (<see cref="ThreadContexts"/>).</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal bool PutBack(Thread? thread) => FlowSuppressed ? RestoreWhileFlowSuppressed(Values) : PutBack(thread, Values);

    /// <summary>Puts <paramref name="values"/>, a context captured with the flow allowed, on the thread; whether it had another.</summary>
    /// <param name="thread">The current thread, if the caller has it (<see cref="ThreadContexts"/>).</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool PutBack(Thread? thread, ExecutionContext values)
    {
        if (ThreadContexts.Capture(thread) == values)
            return false;
        ExecutionContext.Restore(values);
        return true;
    }

    /// <summary>
    /// The values of the thread's ExecutionContext while its flow is suppressed, which only a context
    /// with flow allowed shows: flow is allowed for the capture, and suppressed again. Classic async
    /// saves the thread's context object itself, which no public API gives.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static ExecutionContext CaptureWhileFlowSuppressed()
    {
        ExecutionContext.RestoreFlow();
        var values = ExecutionContext.Capture()!;
        ExecutionContext.SuppressFlow();
        return values;
    }

    /// <summary>Puts back <paramref name="values"/> with the flow suppressed.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool RestoreWhileFlowSuppressed(ExecutionContext values)
    {
        if (ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        ExecutionContext.Restore(values);
        ExecutionContext.SuppressFlow();
        return true;
    }
}
