// ChainRoot: what a suspended chain returns to, when it is an object of its own.
//
// A chain's root is created only when the chain actually suspends (the synchronous path allocates
// none of this). It registers the resumption with whatever the leaf is waiting on, restores the
// ExecutionContext the head frame suspended in (so AsyncLocal values set before an await are seen
// after it, on whatever thread resumes), runs the Dispatcher, and acts on how the dispatch ended:
// it waits for the next notifier, continues in the context a frame must resume in, or completes
// the Task with the outermost frame's result or exception. It is no frame of the chain: the chain
// ends at the outermost frame.
//
// A root takes one of two forms, chosen at the chain's first suspension (the Task must be the
// right object from the start):
// - The leaf awaits a Task, a ValueTask or Task.Yield (the common case at a Task surface: a request
//   handler, a chain of tasks, a library's ConfigureAwait(false) awaits): the root is a struct in
//   the box of the thunk's AsyncTaskMethodBuilder (BuilderRoot.cs), as classic async's state
//   machines are. The box is the Task the thunk returns, and the awaited Task calls it back
//   directly: no root object, no Action, no separate Task.
// - A custom awaiter, or a head that suspended with the ExecutionContext's flow suppressed: this
//   class. It registers a cached Action, or queues itself to the thread pool as a work item for a
//   Yield with no context to post to, and resumes in the head's ExecutionContext itself. Through
//   the builder these cost an ExecutionContext capture and type tests per suspension (bench
//   "suspend": +30%). A builder root hands its chain over to one of these when it meets what it
//   does not handle, or a loop it resumes for more (BuilderRoot.HandOver); for such a loop this
//   keeps the awaiter box to refill (AsyncChain.WaitForAwaiter).
// Keep in sync with AsyncChain.cs (the notifier kinds), Dispatcher.cs (the ends of a dispatch),
// ResumeContext.cs (which continues a moved dispatch) and TaskThunk.cs (which starts the roots).
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;

namespace Async2.Runtime;

[StackTraceHidden]
internal abstract class ChainRoot : IThreadPoolWorkItem
{
    // A lambda, not a method group: a delegate to a static method is invoked through a shuffle thunk.
    private static readonly ContextCallback s_dispatchInContext = [StackTraceHidden] static (state) => ((ChainRoot)state!).Dispatch(inContextRun: true, Thread.CurrentThread);

    private Continuation? _head;
    private Action? _resume;

    /// <summary>
    /// Registered with a notifier that has not called back yet. An awaiter that calls its
    /// continuation twice (a broken one) finds the chain completed the second time, and the call
    /// does nothing, as a completed classic state machine's MoveNext does; resumed again, the frames
    /// would run their code twice.
    /// </summary>
    private bool _waiting;

    /// <summary>The awaiter box of the chain's last suspension on a BCL awaiter, for the next (<see cref="AsyncChain.ReusableNotifier"/>).</summary>
    private object? _awaiterBox;

    /// <summary>
    /// While the root registers with an awaiter, which may call back at once. A Task, or a Yield
    /// queued to the thread pool, never does, so registering with those marks nothing.
    /// </summary>
    private RegistrationMark _registering;

    /// <summary>Waits for the chain's notifier, then resumes the chain from its head.</summary>
    /// <param name="outermostLinked">The outermost frame linked in this registration (<see cref="IDispatchEnds.Suspended"/>).</param>
    internal void AwaitNotifier(ref AsyncChain chain, Continuation outermostLinked)
    {
        if (_head != chain.Head)
            _head = chain.Head;
        if (chain.NotifierKind == NotifierKind.ReusableAwaiter)
        {
            if (_awaiterBox != chain.Notifier)
                _awaiterBox = chain.Notifier;
        }
        // Kept for the loop's next suspension, but not with the last awaiter in it: classic async
        // clears its awaiter field on resumption, and the chain waits on something else now.
        else if (_awaiterBox is not null)
            Unsafe.As<AwaiterBox>(_awaiterBox).Clear();
        _waiting = true;
        var registration = new Registration(this, outermostLinked, chain.Thread);
        NotifierRegistration.Register(registration, ref chain);
    }

    private readonly struct Registration(ChainRoot root, Continuation outermost, Thread? thread) : INotifierRegistration
    {
        public void Register(object? notifier, NotifierKind kind) => root.Register(notifier, kind, outermost, thread);
    }

    /// <param name="outermost">The outermost frame linked in this registration (see <see cref="AwaitNotifier"/>).</param>
    /// <param name="thread">The current thread, if the caller has it (<see cref="ThreadContexts"/>).</param>
    private void Register(object? notifier, NotifierKind kind, Continuation outermost, Thread? thread)
    {
        switch (kind)
        {
            case NotifierKind.Task:
                Unsafe.As<Task>(notifier!).GetAwaiter().UnsafeOnCompleted(_resume ??= Resume);
                break;
            case NotifierKind.StandIn:
                var (notifierOfTheOverride, kindOfTheOverride) = ((IStandInFrame)notifier!).WhatToWaitFor();
                Register(notifierOfTheOverride, kindOfTheOverride, outermost, thread);
                break;
            case NotifierKind.Yield when ResumeContext.Capture(thread) is null:
                ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
                break;
            case NotifierKind.UnsafeAwaiter or NotifierKind.ReusableAwaiter or NotifierKind.Yield or NotifierKind.FlowingAwaiter:
                RegisterWithAwaiter(notifier!, kind, outermost, thread);
                break;
            default:
                throw new InvalidOperationException("Async2: a suspended chain has nothing to wait for.");
        }
    }

    /// <summary>
    /// An awaiter's OnCompleted is user code and may throw (a ValueTask source given a second
    /// waiter does). Classic async's builder then rethrows the exception on the thread pool, where
    /// it is unhandled, and leaves the Task incomplete; so does this, rather than fault the Task or
    /// throw into whatever resumed the chain.
    /// </summary>
    private void RegisterWithAwaiter(object awaiter, NotifierKind kind, Continuation outermost, Thread? thread)
    {
        var enclosing = _registering.Begin(outermost, thread);
        try
        {
            if (kind == NotifierKind.FlowingAwaiter)
                Unsafe.As<INotifyCompletion>(awaiter).OnCompleted(_resume ??= Resume);
            else
                Unsafe.As<ICriticalNotifyCompletion>(awaiter).UnsafeOnCompleted(_resume ??= Resume);
        }
        catch (Exception exception)
        {
            RethrowOnThreadPool(exception);
        }
        _registering.End(enclosing);
    }

    /// <summary>
    /// Rethrows <paramref name="exception"/> on a thread-pool thread, where nothing catches it (the
    /// process ends), as classic async does with what an awaiter's OnCompleted or a context's Post throws.
    /// </summary>
    internal static void RethrowOnThreadPool(Exception exception) =>
        ThreadPool.QueueUserWorkItem([StackTraceHidden] static (fault) => ((ExceptionDispatchInfo)fault!).Throw(), ExceptionDispatchInfo.Capture(exception));

    void IThreadPoolWorkItem.Execute() => Resume();

    /// <summary>
    /// Runs the dispatch in the ExecutionContext the head frame suspended in, which it resumes in
    /// (so the dispatcher need not put it back for the head), and gives the notifier's thread its
    /// own context back afterwards. A head that suspended with flow suppressed runs in the
    /// notifier's, as a classic state machine that captured no context does; that context is put
    /// back too, since the frames after the head change it. A notifier's thread that is in the
    /// head's ExecutionContext already (a Yield on a pool thread, an awaiter completed where the
    /// chain suspended) dispatches in place and puts back the contexts the frames changed: what
    /// ExecutionContext.Run does, without its delegate call.
    /// </summary>
    private void Resume()
    {
        if (!_waiting)
            return;
        _waiting = false;
        var executionContext = _head!.SavedExecutionContext;
        var thread = Thread.CurrentThread;
        if (executionContext is not null && ThreadContexts.Capture(thread) == executionContext)
            DispatchInPlace(thread, executionContext);
        else if (executionContext is not null)
            ExecutionContext.Run(executionContext, s_dispatchInContext, this);
        else if (ThreadContexts.Capture(thread) is { } notifiers)
            ExecutionContext.Run(notifiers, s_dispatchInContext, this);
        else
            Dispatch(inContextRun: false, thread);
    }

    // A finally, where ExecutionContext.Run catches and rethrows: the same unless an exception
    // escapes the dispatch (none does: the dispatcher catches the frames', the registrations catch
    // theirs), whose callers' filters would then run before the contexts are put back.
    private void DispatchInPlace(Thread thread, ExecutionContext executionContext)
    {
        var synchronizationContext = ThreadContexts.SynchronizationContextOf(thread);
        try
        {
            Dispatch(inContextRun: true, thread);
        }
        finally
        {
            if (ThreadContexts.SynchronizationContextOf(thread) != synchronizationContext)
                SynchronizationContext.SetSynchronizationContext(synchronizationContext);
            ThreadExecutionContext.PutBack(thread, executionContext);
        }
    }

    /// <param name="inContextRun">Whether the caller puts the thread's contexts back after it (ExecutionContext.Run, DispatchInPlace).</param>
    /// <param name="thread">The current thread.</param>
    private void Dispatch(bool inContextRun, Thread thread)
    {
        // The head stays recorded (a re-suspending chain usually has the same one): it is not
        // resumed twice, because the notifier calls back once per registration (_waiting).
        Continuation head = _head!;
        var ends = new Ends(this, inContextRun, _registering.OutermostLinkedIfOnThisThread(thread), thread);
        if (!Telemetry.IsOn)
        {
            Dispatcher.Run(ref ends, head);
            return;
        }
        long started = Telemetry.DispatchStarted(head);
        Dispatcher.Run(ref ends, head);
        Telemetry.DispatchEnded(started);
    }

    /// <summary>Dispatches the chain from <paramref name="frame"/>, where it moved to.</summary>
    internal void Continue(Continuation? frame, Continuation? completed, ExceptionDispatchInfo? fault, Continuation? outermostLinkedInRegistration)
    {
        var ends = new Ends(this, inContextRun: false, outermostLinkedInRegistration, Thread.CurrentThread);
        Dispatcher.Run(ref ends, frame, completed, fault);
    }

    /// <summary>The root object is called at each end of a dispatch.</summary>
    private readonly struct Ends(ChainRoot root, bool inContextRun, Continuation? registeringUpTo, Thread thread) : IDispatchEnds
    {
        public bool RootRestoresContexts => inContextRun;

        public Thread Thread => thread;

        public Continuation? OutermostLinkedInRegistration => registeringUpTo;

        public object? ReusableNotifier => root._awaiterBox;

        public void Suspended(ref AsyncChain chain, Continuation outermostLinked) => root.AwaitNotifier(ref chain, outermostLinked);

        public void Moved(object context, Continuation? frame, Continuation? completed, ExceptionDispatchInfo? fault, Continuation? outermostLinkedInRegistration) =>
            ResumeContext.ResumeOn(context, frame, root, completed, fault, outermostLinkedInRegistration);

        public void Completed(Continuation outermost, ExceptionDispatchInfo? fault) => root.Finish(outermost, fault);
    }

    /// <summary>
    /// The chain ended: the root lets go of its frames, then completes the Task. A notifier may keep
    /// its last continuation, the root's Action, until it is used again (a ValueTask source does until
    /// its next Reset), as it keeps classic async's box, whose state machine is cleared on completion.
    /// </summary>
    private void Finish(Continuation outermost, ExceptionDispatchInfo? fault)
    {
        _head = null;
        _awaiterBox = null;
        Complete(outermost, fault);
    }

    /// <summary>Completes the Task with the outermost frame's result, or with the exception the chain ended with.</summary>
    internal abstract void Complete(Continuation outermost, ExceptionDispatchInfo? fault);
}

/// <summary>A root completing the Task of <typeparamref name="TBuilder"/> (<see cref="VoidTaskBuilder"/>, <see cref="TaskBuilder{T}"/>).</summary>
[StackTraceHidden]
internal sealed class TaskChainRoot<TBuilder> : ChainRoot where TBuilder : struct, IRootBuilder
{
    internal TBuilder Builder;

    private TaskChainRoot(TBuilder builder) => Builder = builder;

    /// <summary>Called by the thunk when the first synchronous run of the chain suspended; the Task exists after it.</summary>
    internal static TaskChainRoot<TBuilder> Start(ref AsyncChain chain)
    {
        var root = new TaskChainRoot<TBuilder>(default);
        // Created before registering: once registered, the chain may complete on another thread.
        root.Builder.CreateTask();
        root.AwaitNotifier(ref chain, chain.Tail!);
        return root;
    }

    /// <summary>Takes over a chain from a builder root, whose builder already holds the Task (its box).</summary>
    internal static TaskChainRoot<TBuilder> TakeOver(TBuilder builder) => new(builder);

    internal override void Complete(Continuation outermost, ExceptionDispatchInfo? fault) =>
        Builder.Complete(outermost, fault);
}

/// <summary>How a root registers with a notifier (<see cref="NotifierRegistration.Register{T}"/>).</summary>
internal interface INotifierRegistration
{
    void Register(object? notifier, NotifierKind kind);
}

/// <summary>
/// Kept by a root while it registers with a notifier that may call back at once: such a callback
/// resumes the chain inside the registration (<see cref="IDispatchEnds.OutermostLinkedInRegistration"/>),
/// but only on the registering thread. A callback on another thread before the registration returns
/// (an awaiter completing there, a Task.Yield resumed by a pool thread) races with the callers' awaits,
/// as in classic async, and the chain resumes as after any registration. Fields in the root rather
/// than thread-statics, which took four stores per registration on the suspension path; the
/// thread's id is read once per registration.
/// </summary>
internal struct RegistrationMark
{
    private Continuation? _outermostLinked;
    private int _thread;

    /// <summary>
    /// Set in a builder root's mark until its box is first resumed. That root's first registration
    /// is made on the copy the builder boxes during it, which the mark cannot follow, so the box asks
    /// <see cref="BuilderRoot.StartingHead"/> instead. Here, in the mark's padding, it costs the box
    /// no field of its own (docs/design.md, "The ABI").
    /// </summary>
    private bool _firstResumptionPending;

    /// <summary>The mark of a builder root whose box has not been resumed yet.</summary>
    internal static RegistrationMark BeforeFirstResumption => new() { _firstResumptionPending = true };

    /// <summary>Whether the box is being resumed for the first time; true once only.</summary>
    internal bool TakeFirstResumption()
    {
        if (!_firstResumptionPending)
            return false;
        _firstResumptionPending = false;
        return true;
    }

    /// <param name="outermostLinked">The outermost frame linked in the registration: its suspension's, or the enclosing registration's.</param>
    /// <param name="thread">The registering thread, if the caller has it (<see cref="ThreadContexts"/>).</param>
    /// <returns>The mark of the registration this one is nested in, if any, for <see cref="End"/>.</returns>
    internal RegistrationMark Begin(Continuation outermostLinked, Thread? thread)
    {
        var enclosing = this;
        _thread = ThreadContexts.ManagedThreadId(thread);
        Volatile.Write(ref _outermostLinked, outermostLinked);
        return enclosing;
    }

    /// <summary>
    /// Puts back the mark of the registration this one was nested in, on this thread: a notifier
    /// may queue a callback made during the nested registration and run it once that returns,
    /// still inside the enclosing one (a SynchronizationContext whose Post runs callbacks at once,
    /// and queues those posted while one runs).
    /// </summary>
    internal void End(RegistrationMark enclosing)
    {
        if (enclosing._outermostLinked is not null && enclosing._thread == _thread)
            this = enclosing;
        else
            _outermostLinked = null;
    }

    /// <summary>For the thread resuming the chain: the outermost frame linked in the registration, if that thread is making it; null otherwise.</summary>
    /// <param name="thread">The current thread.</param>
    internal readonly Continuation? OutermostLinkedIfOnThisThread(Thread thread) =>
        Volatile.Read(in _outermostLinked) is { } outermost && _thread == thread.ManagedThreadId ? outermost : null;
}

/// <summary>What both kinds of root do when a chain suspends, around their own registration.</summary>
internal static class NotifierRegistration
{
    /// <summary>
    /// Reports the suspension and registers with the chain's notifier, under the leaf's
    /// SynchronizationContext where a context scope put back its caller's while the chain unwound
    /// (<see cref="AsyncChain.ScopeLeftLeafContext"/>): an awaiter captures the context where it is
    /// registered.
    /// </summary>
    internal static void Register<T>(scoped T registration, ref AsyncChain chain) where T : INotifierRegistration, allows ref struct
    {
        if (Telemetry.IsOn)
            Telemetry.ChainSuspended(chain.Head!, chain.Tail);
        if (!chain.ScopeLeftLeafContext && !chain.ScopeLeftLeafExecutionContext)
            registration.Register(chain.Notifier, chain.NotifierKind);
        else
            RegisterInLeafContexts(registration, ref chain);
        if (chain.ExecutionContextAfterRegistration is { } callers)
            ThreadExecutionContext.PutBack(chain.Thread, callers);
    }

    /// <summary>
    /// Registers under the leaf's SynchronizationContext, and in its ExecutionContext where a scope
    /// entered with the flow suppressed put back its caller's while the chain unwound, and puts the
    /// thread's back after.
    /// </summary>
    private static void RegisterInLeafContexts<T>(scoped T registration, ref AsyncChain chain) where T : INotifierRegistration, allows ref struct
    {
        var synchronizationContext = ThreadContexts.SynchronizationContextOf(chain.Thread);
        ThreadExecutionContext? executionContext = chain.ScopeLeftLeafExecutionContext ? ThreadExecutionContext.Capture(chain.Thread) : null;
        if (chain.ScopeLeftLeafContext)
            SynchronizationContext.SetSynchronizationContext(chain.LeafSynchronizationContext);
        if (executionContext is not null)
            chain.LeafExecutionContext.PutBack(chain.Thread);
        try
        {
            registration.Register(chain.Notifier, chain.NotifierKind);
        }
        finally
        {
            executionContext?.PutBack(chain.Thread);
            if (chain.ScopeLeftLeafContext)
                SynchronizationContext.SetSynchronizationContext(synchronizationContext);
        }
    }
}
