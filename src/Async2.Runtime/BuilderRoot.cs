// BuilderRoot: the root of a chain whose first suspension awaited a Task, a ValueTask (either
// configured or not) or Task.Yield, kept in the box of the thunk's AsyncTaskMethodBuilder, as
// classic async keeps a state machine.
//
// The thunk registers it with the builder as the state machine awaiting the leaf's awaiter, which
// boxes it: the box is the Task the thunk returns, and the awaited Task or ValueTask source calls
// the box back directly, the builder knowing these awaiters (a boxed one registers as its own type,
// AwaiterBox.RegisterThrough). So a chain suspended at a Task surface costs its frames and this box
// only: no root object, no Action. The box runs MoveNext in the ExecutionContext current at
// registration and puts the thread's own back afterwards, so MoveNext only switches to the head
// frame's context when it differs.
//
// It handles the common case only, and hands the chain over to a ChainRoot object (which then
// completes the same Task through a copy of the builder) when it meets anything else:
// - a head that suspended with the ExecutionContext's flow suppressed, or a registration while
//   the flow is suppressed (the box would capture no context, run MoveNext in the notifier's,
//   and not put that back);
// - a dispatch that must continue in another context (ResumeContext.cs);
// - a head that suspends again at the await of a ValueTask or configured awaiter it resumed at (a
//   loop over a channel or a socket), which the root object resumes for less, reusing one box.
// Keep in sync with ChainRoot.cs (the same registration and dispatch, as an object),
// Dispatcher.cs (the ends of a dispatch) and TaskThunk.cs (which starts it).
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;

namespace Async2.Runtime;

internal static class BuilderRoot
{
    /// <summary>Whether a chain's first suspension suits a builder root (else it gets a ChainRoot object).</summary>
    internal static bool Suits(ref AsyncChain chain) =>
        chain.NotifierKind is NotifierKind.Task or NotifierKind.ReusableAwaiter or NotifierKind.Yield or NotifierKind.StandIn
        && chain.Head!.SavedExecutionContext is not null && !ExecutionContext.IsFlowSuppressed();

    /// <summary>
    /// The head of the chain whose first registration this thread is making (BuilderRoot.Start):
    /// the box is a copy of the root made during that registration, so a flag the root clears
    /// after it would stay set in the box. Read at the box's first resumption only.
    /// </summary>
    [ThreadStatic]
    internal static Continuation? StartingHead;
}

/// <summary>
/// A struct, so that the box and the builder's code are compiled for it alone: over a class they
/// would be the shared generic code, with its dictionary lookups and slower thread-static reads
/// (measured: half as fast again per suspension).
/// </summary>
// Hidden, as the dispatch plumbing is: a stack walk in a resumed method (Environment.StackTrace)
// shows the method over the Task machinery, as classic async's does.
[StackTraceHidden]
internal struct BuilderRoot<TBuilder> : IAsyncStateMachine where TBuilder : struct, IRootBuilder
{
    private TBuilder _builder;
    private Continuation _head;

    /// <summary>
    /// While the root registers with a notifier again (as ChainRoot's). Not for a Task, which calls
    /// back inside a registration only when it completes during it, a race whose either outcome is
    /// one classic async has too. Until the box's first resumption, which may come inside
    /// <see cref="Start"/>'s registration, it says only that (<see cref="RegistrationMark.TakeFirstResumption"/>).
    /// </summary>
    private RegistrationMark _registering;

    /// <summary>Called by the thunk when the first synchronous run of the chain suspended (<see cref="BuilderRoot.Suits"/>); the builder's Task is the box.</summary>
    internal static TBuilder Start(ref AsyncChain chain)
    {
        var root = new BuilderRoot<TBuilder> { _builder = default, _head = chain.Head!, _registering = RegistrationMark.BeforeFirstResumption };
        BuilderRoot.StartingHead = root._head;
        root.Register(ref chain);
        BuilderRoot.StartingHead = null;
        return root._builder;
    }

    public void MoveNext()
    {
        var thread = Thread.CurrentThread;
        ThreadExecutionContext.PutBack(thread, _head.SavedExecutionContext!);
        var registeringUpTo = _registering.OutermostLinkedIfOnThisThread(thread);
        if (_registering.TakeFirstResumption() && BuilderRoot.StartingHead == _head)
            registeringUpTo = Outermost(_head);
        var ends = new Ends(ref this, _head.StateAndFlags, registeringUpTo, thread);
        if (!Telemetry.IsOn)
        {
            Dispatcher.Run(ref ends, _head);
            return;
        }
        long started = Telemetry.DispatchStarted(_head);
        Dispatcher.Run(ref ends, _head);
        Telemetry.DispatchEnded(started);
    }

    /// <summary>
    /// The chain suspended again: registers through the builder, or hands the chain over to a root
    /// object if this root cannot, or if the head resumed at <paramref name="resumedAt"/> suspended
    /// again at the same await of a BCL awaiter: a loop reading a channel or a socket, which a root
    /// object resumes faster, refilling one awaiter box (<see cref="AsyncChain.WaitForAwaiter{TAwaiter}"/>).
    /// </summary>
    private void Suspended(ref AsyncChain chain, int resumedAt, Continuation outermostLinked)
    {
        if (chain.Head!.SavedExecutionContext is null || ThreadContexts.IsFlowSuppressed(chain.Thread)
            || (chain.NotifierKind == NotifierKind.ReusableAwaiter && chain.Head == _head && chain.Head.StateAndFlags == resumedAt))
        {
            HandOver().AwaitNotifier(ref chain, outermostLinked);
            return;
        }
        if (_head != chain.Head)
            _head = chain.Head;
        if (chain.NotifierKind == NotifierKind.Task)
        {
            Register(ref chain);
            return;
        }
        var enclosing = _registering.Begin(outermostLinked, chain.Thread);
        Register(ref chain);
        _registering.End(enclosing);
    }

    /// <summary>The chain's outermost frame: all of a chain's frames were linked in its first suspension.</summary>
    private static Continuation Outermost(Continuation head)
    {
        var frame = head;
        while (frame.Next is { } caller)
            frame = caller;
        return frame;
    }

    /// <summary>Registers with what the head awaits (at the first suspension, a Task) through the builder.</summary>
    private void Register(ref AsyncChain chain)
    {
        var registration = new Registration(ref this);
        NotifierRegistration.Register(registration, ref chain);
    }

    private ref struct Registration(ref BuilderRoot<TBuilder> root) : INotifierRegistration
    {
        private ref BuilderRoot<TBuilder> _root = ref root;

        public readonly void Register(object? notifier, NotifierKind kind) => _root.Register(notifier, kind);
    }

    private void Register(object? notifier, NotifierKind kind)
    {
        switch (kind)
        {
            case NotifierKind.Task:
                var taskAwaiter = Unsafe.As<Task>(notifier!).GetAwaiter();
                AwaitUnsafeOnCompleted(ref taskAwaiter);
                break;
            case NotifierKind.Yield:
                var yieldAwaiter = default(YieldAwaitable.YieldAwaiter);
                AwaitUnsafeOnCompleted(ref yieldAwaiter);
                break;
            case NotifierKind.ReusableAwaiter:
                Unsafe.As<AwaiterBox>(notifier!).RegisterThrough(ref this);
                break;
            case NotifierKind.UnsafeAwaiter:
                var awaiter = Unsafe.As<ICriticalNotifyCompletion>(notifier!);
                AwaitUnsafeOnCompleted(ref awaiter);
                break;
            case NotifierKind.FlowingAwaiter:
                var flowingAwaiter = Unsafe.As<INotifyCompletion>(notifier!);
                _builder.AwaitOnCompleted(ref flowingAwaiter, ref this);
                break;
            case NotifierKind.StandIn:
                var (notifierOfTheOverride, kindOfTheOverride) = ((IStandInFrame)notifier!).WhatToWaitFor();
                Register(notifierOfTheOverride, kindOfTheOverride);
                break;
            default:
                throw new InvalidOperationException("Async2: a suspended chain has nothing to wait for.");
        }
    }

    /// <summary>
    /// Registers the box with <paramref name="awaiter"/> through the builder, which knows the BCL's
    /// awaiters of a Task or ValueTask and has them call the box back without an Action (a boxed
    /// one comes here as its own type: AwaiterBox.RegisterThrough).
    /// </summary>
    internal void AwaitUnsafeOnCompleted<TAwaiter>(ref TAwaiter awaiter) where TAwaiter : ICriticalNotifyCompletion =>
        _builder.AwaitUnsafeOnCompleted(ref awaiter, ref this);

    /// <summary>
    /// A ChainRoot object that takes the chain on; the box is not called back again. The box lets
    /// go of the head frame: it is the Task, which callers and caches keep, and the root object
    /// completes it without running the box, which clears its state machine only when it does.
    /// </summary>
    private ChainRoot HandOver()
    {
        _head = null!;
        return TaskChainRoot<TBuilder>.TakeOver(_builder);
    }

    /// <summary>What the dispatch does at its ends: acts on this root, in the box, by reference.</summary>
    private ref struct Ends(ref BuilderRoot<TBuilder> root, int resumedAt, Continuation? registeringUpTo, Thread thread) : IDispatchEnds
    {
        private ref BuilderRoot<TBuilder> _root = ref root;

        // The box runs MoveNext in ExecutionContext.RunInternal, which puts the thread's contexts back.
        public readonly bool RootRestoresContexts => true;

        public readonly Thread Thread => thread;

        public readonly Continuation? OutermostLinkedInRegistration => registeringUpTo;

        // The builder registers the awaiter in a box itself, not the box: it keeps none to reuse.
        public readonly object? ReusableNotifier => null;

        public readonly void Suspended(ref AsyncChain chain, Continuation outermostLinked) => _root.Suspended(ref chain, resumedAt, outermostLinked);

        public readonly void Moved(object context, Continuation? frame, Continuation? completed, ExceptionDispatchInfo? fault, Continuation? outermostLinkedInRegistration) =>
            ResumeContext.ResumeOn(context, frame, _root.HandOver(), completed, fault, outermostLinkedInRegistration);

        public readonly void Completed(Continuation outermost, ExceptionDispatchInfo? fault) => _root._builder.Complete(outermost, fault);
    }

    public void SetStateMachine(IAsyncStateMachine stateMachine)
    {
    }
}
