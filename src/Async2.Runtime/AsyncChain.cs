// AsyncChain: the state one chain of async2 calls shares, passed by reference to every variant.
//
// It lives on the stack of whoever started or resumed the chain (a Task thunk or the dispatcher),
// so reaching it costs an argument, not a thread-local lookup. It is a ref struct, so that the JIT
// knows every `ref AsyncChain` points into a stack: it then stores references through it without
// a write barrier (a struct's byref may point into the heap, and each store of a suspension paid a
// checked-barrier call: Head, Tail, Notifier, the unwinding's contexts). The protocol, which the rewriter's
// generated code follows (Async2.Rewriter/Rewrite/SuspensionEmitter.cs):
//   - after every call to another variant, the caller tests Head != null ("did it suspend?");
//   - a frame that suspends builds its continuation and calls Link (LinkAwaitingCallee when it
//     awaited another variant), innermost frame first;
//   - the leaf that found an incomplete awaitable leaves it in Notifier (AwaitBridge.cs);
//   - on resumption the dispatcher fills Completed (the callee frame that just finished, holding
//     its result) or Fault (the exception it threw) for the frame it resumes next.
using System.ComponentModel;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;

namespace Async2.Runtime;

[EditorBrowsable(EditorBrowsableState.Never)]
public ref struct AsyncChain
{
    /// <summary>The innermost suspended frame; non-null exactly while the chain is suspending.</summary>
    public Continuation? Head;

    /// <summary>The outermost frame linked so far.</summary>
    public Continuation? Tail;

    /// <summary>
    /// The thread a dispatch resumes the chain on, read once by its root, through which the frames'
    /// context reads are field loads (ThreadContexts.cs); null on a chain's synchronous first run.
    /// </summary>
    internal Thread? Thread;

    /// <summary>What the leaf is waiting for: a <see cref="Task"/> or a boxed awaiter, as <see cref="NotifierKind"/> says.</summary>
    internal object? Notifier;

    /// <summary>
    /// What <see cref="Notifier"/> is, set with it where the awaiter's type is known statically
    /// (AwaitBridge.cs), so the root registers without testing the notifier's type.
    /// </summary>
    internal NotifierKind NotifierKind;

    /// <summary>Leaves <paramref name="task"/> as the notifier.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void WaitFor(Task task)
    {
        Notifier = task;
        NotifierKind = NotifierKind.Task;
    }

    /// <summary>Leaves <paramref name="frame"/>, about to link, as the notifier: it names what to wait for when the root registers (<see cref="NotifierKind.StandIn"/>).</summary>
    internal void WaitForStandIn(IStandInFrame frame)
    {
        Notifier = frame;
        NotifierKind = NotifierKind.StandIn;
    }

    /// <summary>Leaves Task.Yield's awaiter as the notifier (<see cref="NotifierKind.Yield"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void WaitForYield()
    {
        Notifier = AwaitBridge.BoxedYieldAwaiter;
        NotifierKind = NotifierKind.Yield;
    }

    /// <summary>Leaves <paramref name="awaiter"/> as the notifier, registered with UnsafeOnCompleted.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void WaitFor(ICriticalNotifyCompletion awaiter)
    {
        Notifier = awaiter;
        NotifierKind = NotifierKind.UnsafeAwaiter;
    }

    /// <summary>
    /// Leaves one of the BCL's awaiters of a Task or ValueTask as the notifier, in a box: the box
    /// the root kept from the chain's last suspension on that awaiter type when there is one
    /// (<see cref="ReusableNotifier"/>), so a loop awaiting a channel, a socket or a
    /// ConfigureAwait(false) task allocates no box per suspension, as classic async's state
    /// machine keeps its awaiter in a field of its box. Reusing it is safe: the root registers with
    /// a box once the notifier it held before has called back, and these awaiters read their
    /// fields before registering, never after.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void WaitForAwaiter<TAwaiter>(TAwaiter awaiter) where TAwaiter : struct, ICriticalNotifyCompletion
    {
        if (ReusableNotifier is AwaiterBox<TAwaiter> box)
            box.Awaiter = awaiter;
        else
            box = new AwaiterBox<TAwaiter>(awaiter);
        Notifier = box;
        NotifierKind = NotifierKind.ReusableAwaiter;
    }

    /// <summary>
    /// On resumption by a root that keeps one: the awaiter box of the chain's last suspension,
    /// refilled by <see cref="WaitForAwaiter{TAwaiter}"/> when the chain suspends on the same type again.
    /// </summary>
    internal object? ReusableNotifier;

    /// <summary>Leaves <paramref name="awaiter"/> as the notifier, registered with OnCompleted (it flows the ExecutionContext).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void WaitForFlowing(INotifyCompletion awaiter)
    {
        Notifier = awaiter;
        NotifierKind = NotifierKind.FlowingAwaiter;
    }

    /// <summary>
    /// The SynchronizationContext current when the leaf suspended, if a frame's context scope put
    /// back its caller's while the chain unwound (<see cref="ThunkScope.ExitVariant"/>; see
    /// <see cref="ScopeLeftLeafContext"/>). The root registers with the notifier under it: an
    /// awaiter captures the context where it is registered.
    /// </summary>
    internal SynchronizationContext? LeafSynchronizationContext;

    /// <summary>
    /// Whether <see cref="LeafSynchronizationContext"/> was recorded. Only a context scope can
    /// change the context between the leaf's suspension and the root (the frames in between only
    /// link themselves), so without one the root registers under the context it finds, and
    /// neither the leaf nor the root reads it: two thread-static reads less per suspension.
    /// </summary>
    internal bool ScopeLeftLeafContext;

    /// <summary>
    /// Whether a context scope entered with the ExecutionContext's flow suppressed put back its
    /// caller's ExecutionContext while the chain unwound: the root then registers with the notifier
    /// in <see cref="LeafExecutionContext"/>, so an awaiter sees the awaiting method's AsyncLocal
    /// values and flow state, as under classic async. Other scopes leave theirs to
    /// <see cref="ExecutionContextAfterRegistration"/>.
    /// </summary>
    internal bool ScopeLeftLeafExecutionContext;

    /// <summary>The thread's ExecutionContext when the first such scope left the chain: the leaf's.</summary>
    internal ThreadExecutionContext LeafExecutionContext;

    /// <summary>
    /// The ExecutionContext the thread goes back to once the root has registered with the notifier,
    /// when context scopes left the chain while it suspended (<see cref="ThunkScope.ExitVariant"/>):
    /// their callers' values, the outermost scope's. Until then the thread keeps the leaf's, in which
    /// the notifier is registered, as classic async registers before its builder puts the caller's
    /// back: putting them back at each scope and switching to the leaf's to register, and back,
    /// showed an AsyncLocal's change handler two notifications that classic async never gives.
    /// </summary>
    internal ExecutionContext? ExecutionContextAfterRegistration;

    /// <summary>Called by a context scope leaving the suspending chain: the frames after it link in <paramref name="callers"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void LeaveExecutionContextAfterRegistration(ExecutionContext callers)
    {
        if ((ExecutionContextAfterRegistration ?? ThreadContexts.Capture(Thread)) == callers)
            return;
        ExecutionContextAfterRegistration = callers;
        _unwindingExecutionContext = callers;
        _unwindingContextsRead |= ExecutionContextRead;
    }

    /// <summary>On resumption: the callee frame that completed just before this one.</summary>
    public Continuation? Completed;

    /// <summary>On resumption: the exception the callee frames ended with, to rethrow at the suspension point.</summary>
    public ExceptionDispatchInfo? Fault;

    /// <summary>
    /// With <see cref="Fault"/>: the innermost of <see cref="PassThroughCount"/> callee frames the
    /// exception must be rethrown through, from inside this one, to show in its stack trace
    /// (PassThroughFrames.cs).
    /// </summary>
    internal Continuation? PassThroughInnermost;

    /// <summary>How many frames from <see cref="PassThroughInnermost"/> outwards.</summary>
    internal int PassThroughCount;

    /// <summary>
    /// The stack address below which a variant asks for room before going deeper (StackGuard.cs);
    /// set by whoever starts the chain. Zero turns the guard off.
    /// </summary>
    public nuint StackFloor;

    /// <summary>
    /// What the next context scope entered leaves to whoever called or resumed its variant: set by a
    /// Task thunk or the dispatcher for that variant's scope, taken by it (ThunkScope.EnterVariant).
    /// </summary>
    internal ScopeLending ScopeLending;

    /// <summary>
    /// Called by a Task thunk before it calls a variant that has a context scope: the thunk restores
    /// the contexts itself, so the variant's scope need not (ThunkScope.EnterVariant).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void LendContextScope() => ScopeLending = ScopeLending.Contexts;

    /// <summary>True while frames are suspending (a callee returned without completing).</summary>
    public readonly bool IsSuspending
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Head is not null;
    }

    /// <summary>Appends a suspending frame, called innermost first as the frames unwind.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Link(Continuation frame)
    {
        frame.SetContexts(UnwindingExecutionContext(), captured: null);
        Append(frame);
    }

    /// <summary>
    /// <see cref="Link"/> for a frame suspended at an await of another rewritten method. That
    /// await continues on the caller's context (a direct call is never ConfigureAwait(false)),
    /// which the callee may leave behind (ConfigureAwait(false) inside it), so the frame records
    /// where it must be resumed; the dispatcher goes back there before resuming it.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void LinkAwaitingCallee(Continuation frame)
    {
        if ((_unwindingContextsRead & ResumeContextRead) == 0)
        {
            _unwindingResumeContext = ResumeContext.Capture(Thread);
            _unwindingContextsRead |= ResumeContextRead;
        }
        frame.SetContexts(UnwindingExecutionContext(), _unwindingResumeContext);
        // A frame standing in for the callee (a foreign override) waits as this await would (OverrideDispatch.cs).
        if (NotifierKind == NotifierKind.StandIn && Tail == Notifier)
            ((IStandInFrame)Notifier!).CallerContinuesOnCapturedContext = true;
        Append(frame);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Append(Continuation frame)
    {
        if (Head is null)
            Head = frame;
        else
            Tail!.Next = frame;
        Tail = frame;
    }

    // The contexts the frames link in, read once per unwinding rather than once per frame (three
    // thread-static reads per frame, most of a deep chain's suspension): while a chain unwinds,
    // only a variant's context scope can change them (ThunkScope.ExitVariant), and it forgets the
    // one it changes, so the next frame reads it again.
    private const byte ExecutionContextRead = 1;
    private const byte ResumeContextRead = 2;
    private byte _unwindingContextsRead;
    private ExecutionContext? _unwindingExecutionContext;
    private object? _unwindingResumeContext;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ExecutionContext? UnwindingExecutionContext()
    {
        if ((_unwindingContextsRead & ExecutionContextRead) == 0)
        {
            _unwindingExecutionContext = ThreadContexts.Capture(Thread);
            _unwindingContextsRead |= ExecutionContextRead;
        }
        return _unwindingExecutionContext;
    }

    /// <summary>Called by a context scope that put back its caller's SynchronizationContext.</summary>
    internal void ForgetResumeContext() => _unwindingContextsRead &= unchecked((byte)~ResumeContextRead);

    /// <summary>Called by a context scope that put back its caller's ExecutionContext.</summary>
    internal void ForgetExecutionContext() => _unwindingContextsRead &= unchecked((byte)~ExecutionContextRead);

    /// <summary>
    /// At a resumed await of a void variant: rethrows the callee's exception, if any, at the
    /// await, so the handlers around it run as they would have on the synchronous path. Hidden, as
    /// the methods that rethrow are: not inlined (Tier 0), they are frames of the exception, which
    /// Exception.ToString leaves out as inlining candidates but other renderers show (ASP.NET
    /// Core's developer exception page hides [StackTraceHidden] methods only).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    [StackTraceHidden]
    public void ThrowIfFaulted()
    {
        if (Fault is not null)
            RethrowThroughPassThroughFrames();
    }

    /// <summary>
    /// <see cref="ThrowIfFaulted()"/> for the branch of Continuation.PassFaultThrough that stands
    /// for await <paramref name="state"/>, which goes with the throw: the branches' throws then
    /// differ, and the JIT cannot merge them into one (.NET 11's tail merge does), which would
    /// leave one await's line in the trace for every await of the method
    /// (tests/corpus/exceptions_long_pass_through_runs.cs on .NET 11).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    [StackTraceHidden]
    public void ThrowIfFaulted(int state)
    {
        if (Fault is not null)
        {
            // A passed-through frame has no handler at its await, so resuming it with Fault rethrows it;
            // the throw below is reached only when there is no such frame, Fault still set.
            TakeOutermostPassThroughFrame()?.PassFaultThrough(ref this);
            PassThroughFrames.Throw(Fault!, state);
        }
    }

    /// <summary>
    /// Rethrows <see cref="Fault"/> from inside the <see cref="PassThroughCount"/> frames from
    /// <see cref="PassThroughInnermost"/> (PassThroughFrames.cs): has the outermost of them rethrow
    /// it at its await with this same chain, one frame fewer (Continuation.PassFaultThrough), which
    /// comes back here for the rest. Inlined into the awaiting frame's code, so that the throw
    /// unwinds one stack frame per frame passed through, not two: the unwinding is what complete
    /// traces cost.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    [StackTraceHidden]
    internal void RethrowThroughPassThroughFrames()
    {
        TakeOutermostPassThroughFrame()?.PassFaultThrough(ref this);
        // A frame whose await had nothing to rethrow, or none left: keep the exception going.
        Fault!.Throw();
    }

    /// <summary>
    /// The outermost frame left to rethrow through, counted off; null when none is left or the
    /// stack runs low. Not inlined, to keep the variants' cold paths small; it has returned by the
    /// time the exception is thrown, so it adds no frame to unwind.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private Continuation? TakeOutermostPassThroughFrame()
    {
        if (PassThroughCount == 0 || !RuntimeHelpers.TryEnsureSufficientExecutionStack())
            return null;
        Continuation outermost = PassThroughInnermost!;
        for (int i = 1; i < PassThroughCount; i++)
            outermost = outermost.Next!;
        PassThroughCount--;
        return outermost;
    }

    /// <summary>At a resumed await of a value-returning variant: the callee's result or its exception.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    [StackTraceHidden]
    public T GetResult<T>()
    {
        if (Fault is not null)
            RethrowThroughPassThroughFrames();
        return Unsafe.As<Continuation<T>>(Completed!).Result;
    }
}

/// <summary>What a variant's context scope leaves to its caller or to the dispatcher (<see cref="AsyncChain.ScopeLending"/>).</summary>
internal enum ScopeLending : byte
{
    /// <summary>Nothing: the scope puts back both contexts.</summary>
    None,

    /// <summary>Both contexts, all the time: a Task thunk or a root that restores them itself.</summary>
    Contexts,

    /// <summary>
    /// Both contexts, when the resumed frame returns or throws, as classic async's continuation of
    /// its caller finds them: the dispatcher puts back the caller's ExecutionContext (a caller that
    /// saved none runs in the one the frame finished in), and sends the caller to the
    /// SynchronizationContext it awaited in, or to the thread pool, unless it may go on under the one
    /// the frame left.
    /// </summary>
    ContextsOnCompletion,
}

/// <summary>How the root registers with <see cref="AsyncChain.Notifier"/>.</summary>
internal enum NotifierKind : byte
{
    None,
    Task,
    UnsafeAwaiter,
    FlowingAwaiter,

    /// <summary>
    /// Task.Yield's awaiter: with no context to post to, the root queues itself to the thread pool
    /// as a work item, as Task.Yield queues a classic state machine's box (to the global queue, so
    /// yielded chains resume in the order they yielded), with no delegate to wrap.
    /// </summary>
    Yield,

    /// <summary>
    /// A BCL awaiter in an <see cref="AwaiterBox{TAwaiter}"/> (<see cref="AsyncChain.WaitForAwaiter{TAwaiter}"/>),
    /// registered as <see cref="UnsafeAwaiter"/> is; a root object keeps the box for the chain's next suspension.
    /// </summary>
    ReusableAwaiter,

    /// <summary>
    /// A frame standing in for a non-async override (<see cref="IStandInFrame"/>): asked at
    /// registration, once its caller has linked, what to wait for.
    /// </summary>
    StandIn,
}

/// <summary>A BCL awaiter boxed as a chain's notifier (<see cref="AsyncChain.WaitForAwaiter{TAwaiter}"/>).</summary>
internal abstract class AwaiterBox : ICriticalNotifyCompletion
{
    public abstract void OnCompleted(Action continuation);

    public abstract void UnsafeOnCompleted(Action continuation);

    /// <summary>Registers a builder root with the awaiter itself, as its own type, so the builder needs no Action for it.</summary>
    internal abstract void RegisterThrough<TBuilder>(ref BuilderRoot<TBuilder> root) where TBuilder : struct, IRootBuilder;

    /// <summary>Lets go of the awaiter, and so of the task and result it holds, while the box waits to be refilled.</summary>
    internal abstract void Clear();
}

internal sealed class AwaiterBox<TAwaiter>(TAwaiter awaiter) : AwaiterBox where TAwaiter : struct, ICriticalNotifyCompletion
{
    internal TAwaiter Awaiter = awaiter;

    public override void OnCompleted(Action continuation) => Awaiter.OnCompleted(continuation);

    public override void UnsafeOnCompleted(Action continuation) => Awaiter.UnsafeOnCompleted(continuation);

    internal override void RegisterThrough<TBuilder>(ref BuilderRoot<TBuilder> root) => root.AwaitUnsafeOnCompleted(ref Awaiter);

    internal override void Clear() => Awaiter = default;
}
