// ChainRoot: what a suspended chain returns to, owned by the Task thunk that started it.
//
// It is created only when a chain actually suspends (the synchronous path allocates none of
// this). It registers the resumption with whatever the leaf is waiting on, restores the
// ExecutionContext the head frame suspended in (so AsyncLocal values set before an await are seen
// after it, on whatever thread resumes), runs the Dispatcher, and acts on how the dispatch ended:
// it waits for the next notifier, continues in the context a frame must resume in, or completes
// the Task with the outermost frame's result or exception. It is no frame of the chain: the chain
// ends at the outermost frame, so a suspension costs no continuation for the root.
//
// How it registers is chosen at its first suspension, and kept (the Task must be the right object
// from the start):
// - The leaf awaits a Task (the common case at a Task surface: a request handler, a chain of
//   tasks): the root registers through its AsyncTaskMethodBuilder, as the state machine the builder
//   awaits for (RootMachine), as classic async's state machines do. The builder's box then is the
//   Task the thunk returns, and the awaited Task calls the box back directly: no Action and no
//   separate Task. The box runs it in the ExecutionContext current at registration (none if the
//   head suspended with the flow suppressed), which ResumeInHeadContext leaves for the head's if
//   they differ.
// - Anything else (Task.Yield, a custom awaiter, the stack guard): the root registers a cached
//   Action, or queues itself to the thread pool as a work item for a Yield with no context to post
//   to, and resumes in the head's ExecutionContext itself. Through the builder these cost an
//   ExecutionContext capture and type tests per suspension (bench "suspend": +30%).
// Keep in sync with AsyncChain.cs (the notifier kinds), Dispatcher.cs (the ends of a dispatch),
// ResumeContext.cs (which continues a moved dispatch) and TaskThunk.cs (the Task is read from the builder after Start, which creates it).
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;

namespace Async2.Runtime;

internal abstract class ChainRoot : IThreadPoolWorkItem
{
    private static readonly ContextCallback s_dispatchInContext = static state => ((ChainRoot)state!).Dispatch();

    private Continuation? _head;
    private Action? _resume;

    /// <summary>Whether the root registers through its builder (its first notifier was a Task).</summary>
    private bool _awaitsThroughBuilder;

    /// <summary>Called by the thunk when the first synchronous run of the chain suspended; the Task exists after it.</summary>
    internal void Start(ref AsyncChain chain)
    {
        _awaitsThroughBuilder = chain.NotifierKind == NotifierKind.Task;
        // Created before registering: once registered, the chain may complete on another thread.
        if (!_awaitsThroughBuilder)
            CreateTask();
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
        if (_awaitsThroughBuilder)
        {
            RegisterThroughBuilderInHeadFlow(notifier, kind);
            return;
        }
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

    /// <summary>
    /// A head that suspended with the ExecutionContext's flow suppressed resumes in the notifier's
    /// context, as a classic state machine that captured none does: the builder must capture none either.
    /// </summary>
    private void RegisterThroughBuilderInHeadFlow(object? notifier, NotifierKind kind)
    {
        if (_head!.SavedExecutionContext is not null || ExecutionContext.IsFlowSuppressed())
        {
            RegisterThroughBuilder(notifier, kind);
            return;
        }
        using (ExecutionContext.SuppressFlow())
            RegisterThroughBuilder(notifier, kind);
    }

    /// <summary>Creates the builder's Task, for a root that does not register through the builder.</summary>
    private protected abstract void CreateTask();

    /// <summary>Registers through the builder, as awaiting <paramref name="notifier"/>, of the kind <paramref name="kind"/>.</summary>
    private protected abstract void RegisterThroughBuilder(object? notifier, NotifierKind kind);

    void IThreadPoolWorkItem.Execute() => Resume();

    private void Resume() => ResumeInHeadContext(callerPutsContextBack: false);

    /// <summary>
    /// Runs the dispatch in the ExecutionContext the head frame suspended in, which it resumes in
    /// (so the dispatcher need not put it back for the head), and gives the notifier's thread its
    /// own context back afterwards. A head that suspended with flow suppressed runs in the
    /// notifier's, as a classic state machine that captured no context does; that context is put
    /// back too, since the frames after the head change it.
    /// </summary>
    /// <param name="callerPutsContextBack">
    /// Whether the caller runs this in a context it puts back afterwards (the builder's box, which
    /// captured one at registration): then a head already in its context is dispatched as it is.
    /// </param>
    internal void ResumeInHeadContext(bool callerPutsContextBack)
    {
        var executionContext = _head!.SavedExecutionContext;
        if (executionContext is null)
        {
            if (ExecutionContext.Capture() is { } notifiers)
                ExecutionContext.Run(notifiers, s_dispatchInContext, this);
            else
                Dispatch();
        }
        else if (callerPutsContextBack && ExecutionContext.Capture() == executionContext)
            Dispatch();
        else
            ExecutionContext.Run(executionContext, s_dispatchInContext, this);
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

    /// <summary>Completes the Task with the outermost frame's result, or with the exception the chain ended with.</summary>
    internal abstract void Complete(Continuation outermost, ExceptionDispatchInfo? fault);
}

/// <summary>
/// A root completing the Task of <typeparamref name="TBuilder"/>: the one registration, for both
/// builders (<see cref="VoidTaskBuilder"/>, <see cref="TaskBuilder{T}"/>).
/// </summary>
internal sealed class TaskChainRoot<TBuilder> : ChainRoot where TBuilder : struct, IRootBuilder
{
    internal TBuilder Builder;

    private protected override void CreateTask() => Builder.CreateTask();

    private protected override void RegisterThroughBuilder(object? notifier, NotifierKind kind)
    {
        var root = new RootMachine(this);
        switch (kind)
        {
            case NotifierKind.Task:
                var taskAwaiter = Unsafe.As<Task>(notifier!).GetAwaiter();
                Builder.AwaitUnsafeOnCompleted(ref taskAwaiter, ref root);
                break;
            case NotifierKind.Yield:
                var yieldAwaiter = default(YieldAwaitable.YieldAwaiter);
                Builder.AwaitUnsafeOnCompleted(ref yieldAwaiter, ref root);
                break;
            case NotifierKind.UnsafeAwaiter:
                var awaiter = Unsafe.As<ICriticalNotifyCompletion>(notifier!);
                Builder.AwaitUnsafeOnCompleted(ref awaiter, ref root);
                break;
            case NotifierKind.FlowingAwaiter:
                var flowingAwaiter = Unsafe.As<INotifyCompletion>(notifier!);
                Builder.AwaitOnCompleted(ref flowingAwaiter, ref root);
                break;
            default:
                throw new InvalidOperationException("Async2: a suspended chain has nothing to wait for.");
        }
    }

    internal override void Complete(Continuation outermost, ExceptionDispatchInfo? fault)
    {
        if (fault is not null)
            Builder.SetException(fault.SourceException);
        else
            Builder.SetResult(outermost);
    }
}

/// <summary>
/// What the builder boxes and calls back: a struct, so that the box and the builder's code are
/// compiled for it alone; over a class they would be the shared generic code, with its
/// dictionary lookups and slower thread-static reads (measured: half as fast again per suspension).
/// </summary>
internal readonly struct RootMachine(ChainRoot root) : IAsyncStateMachine
{
    public void MoveNext() => root.ResumeInHeadContext(callerPutsContextBack: true);

    public void SetStateMachine(IAsyncStateMachine stateMachine)
    {
    }
}

/// <summary>AsyncTaskMethodBuilder and AsyncTaskMethodBuilder&lt;T&gt; behind one face, for <see cref="TaskChainRoot{TBuilder}"/>.</summary>
internal interface IRootBuilder
{
    void AwaitUnsafeOnCompleted<TAwaiter>(ref TAwaiter awaiter, ref RootMachine root) where TAwaiter : ICriticalNotifyCompletion;

    void AwaitOnCompleted<TAwaiter>(ref TAwaiter awaiter, ref RootMachine root) where TAwaiter : INotifyCompletion;

    /// <summary>Creates the Task before any registration, for a root that registers without the builder.</summary>
    void CreateTask();

    /// <summary>Completes the Task with the outermost frame's result.</summary>
    void SetResult(Continuation outermost);

    void SetException(Exception exception);
}

/// <summary>The builder of a <see cref="Task"/>.</summary>
internal struct VoidTaskBuilder : IRootBuilder
{
    private AsyncTaskMethodBuilder _builder;

    /// <summary>
    /// Read after the first registration, or after <see cref="CreateTask"/>: before either, the
    /// builder would make a Task that a registration through it then replaces with its box.
    /// </summary>
    internal Task Task => _builder.Task;

    public void CreateTask() => _ = _builder.Task;

    public void AwaitUnsafeOnCompleted<TAwaiter>(ref TAwaiter awaiter, ref RootMachine root) where TAwaiter : ICriticalNotifyCompletion =>
        _builder.AwaitUnsafeOnCompleted(ref awaiter, ref root);

    public void AwaitOnCompleted<TAwaiter>(ref TAwaiter awaiter, ref RootMachine root) where TAwaiter : INotifyCompletion =>
        _builder.AwaitOnCompleted(ref awaiter, ref root);

    public void SetResult(Continuation outermost) => _builder.SetResult();

    public void SetException(Exception exception) => _builder.SetException(exception);
}

/// <summary>The builder of a <see cref="Task{T}"/>.</summary>
internal struct TaskBuilder<T> : IRootBuilder
{
    private AsyncTaskMethodBuilder<T> _builder;

    /// <summary>Read after the first registration, or after <see cref="CreateTask"/> (see <see cref="VoidTaskBuilder.Task"/>).</summary>
    internal Task<T> Task => _builder.Task;

    public void CreateTask() => _ = _builder.Task;

    public void AwaitUnsafeOnCompleted<TAwaiter>(ref TAwaiter awaiter, ref RootMachine root) where TAwaiter : ICriticalNotifyCompletion =>
        _builder.AwaitUnsafeOnCompleted(ref awaiter, ref root);

    public void AwaitOnCompleted<TAwaiter>(ref TAwaiter awaiter, ref RootMachine root) where TAwaiter : INotifyCompletion =>
        _builder.AwaitOnCompleted(ref awaiter, ref root);

    public void SetResult(Continuation outermost) => _builder.SetResult(Unsafe.As<Continuation<T>>(outermost).Result);

    public void SetException(Exception exception) => _builder.SetException(exception);
}
