// Continuation: the heap record of one suspended async2 frame.
//
// The rewriter generates one sealed subclass per async method, with a typed field for each local,
// argument and spilled stack slot that is live at some suspension point of that method (see
// Async2.Rewriter/Rewrite/ContinuationLayout.cs). Frames are linked innermost first: Head is the
// frame that awaited something that was not complete; Next leads towards the Task thunk that
// started the chain. The dispatcher (Dispatcher.cs) resumes them in that order.
//
// Keep in sync with the rewriter: field names are looked up by name (RuntimeNames.cs).
using System.ComponentModel;
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace Async2.Runtime;

/// <summary>Flag bits stored in the low bits of <see cref="Continuation.StateAndFlags"/>.</summary>
[Flags]
public enum ContinuationFlags
{
    None = 0,

    /// <summary>
    /// The frame suspended inside a protected region (try of a catch, filter, finally or fault).
    /// Only such frames are resumed with an exception; the dispatcher skips the others, because
    /// an exception reaching them would just leave them again (seed 002's flag-check skip).
    /// </summary>
    HandlesExceptions = 1,

    /// <summary>
    /// The frame's method runs in flowing context mode (seed 002's async2 semantics): when it
    /// completes, the ExecutionContext and SynchronizationContext it leaves behind are its caller's,
    /// so the dispatcher neither restores the caller's saved ExecutionContext nor moves the caller
    /// off the context the callee left current. Written with every suspension of such a method.
    /// </summary>
    FlowsContextsToCaller = 2,

    /// <summary>
    /// The frame's method brackets its body with a context scope (compatible context mode, a body
    /// that may change a context). Resumed as a chain's only frame by a root that puts the
    /// thread's contexts back itself, it is lent that root's scope: four thread-static reads less
    /// per resumption; resumed otherwise, its scope leaves the contexts it finishes in to the
    /// dispatcher (AsyncChain.ScopeLending).
    /// </summary>
    HasContextScope = 4,
}

/// <summary>A suspended async2 frame. Generated code derives from it; user code never does.</summary>
/// <remarks>
/// It is an IAsyncStateMachine only for stack traces: .NET prints a frame of a method declared on a
/// compiler-generated IAsyncStateMachine as the method whose [AsyncStateMachine] names that type,
/// and the rewriter declares each variant on its continuation class and names that class on the
/// original method, so variants show as the methods they were written as. Nothing drives it as one.
/// </remarks>
[EditorBrowsable(EditorBrowsableState.Never)]
public abstract class Continuation : IAsyncStateMachine
{
    /// <summary>The caller's frame, resumed after this one completes.</summary>
    public Continuation? Next;

    /// <summary>
    /// The suspension point to resume at (1-based) shifted left by <see cref="FlagBits"/>, and that
    /// point's <see cref="ContinuationFlags"/> in the bits below: one constant per suspension point,
    /// written by the suspending method in one store. One field rather than two makes a frame 8
    /// bytes smaller whenever its own fields leave 4 bytes of the last word free (an
    /// <c>async Task&lt;int&gt;</c> keeping one Task: 56 → 48 bytes).
    /// </summary>
    public int StateAndFlags;

    /// <summary>How many low bits of <see cref="StateAndFlags"/> hold the flags.</summary>
    public const int FlagBits = 3;

    /// <summary>The suspension point to resume at, 1-based.</summary>
    internal int State => StateAndFlags >> FlagBits;

    /// <summary>The <see cref="ContinuationFlags"/> of the suspension point.</summary>
    internal ContinuationFlags Flags => (ContinuationFlags)(StateAndFlags & ((1 << FlagBits) - 1));

    /// <summary>
    /// The contexts the frame suspended in, in one field since a frame seldom has a
    /// SynchronizationContext or TaskScheduler to come back to: its ExecutionContext alone (null
    /// when the flow was suppressed), or a <see cref="FrameContexts"/> holding it and that context.
    /// Written when the frame links (<see cref="AsyncChain.Link"/>, <see cref="AsyncChain.LinkAwaitingCallee"/>).
    /// </summary>
    private object? _contexts;

    /// <summary>
    /// For a frame suspended while awaiting another rewritten method: the SynchronizationContext or
    /// TaskScheduler it awaited on, where it must continue once the callee completes (null: anywhere).
    /// See <see cref="ResumeContext"/>.
    /// </summary>
    internal object? CapturedContext => _contexts is FrameContexts both ? both.Captured : null;

    /// <summary>
    /// The ExecutionContext the frame ran in when it suspended, restored before it resumes, so that
    /// it sees its own AsyncLocal values whatever its callees or the resuming thread had
    /// (classic async flows the context per await the same way).
    /// </summary>
    internal ExecutionContext? SavedExecutionContext =>
        _contexts is FrameContexts both ? both.ExecutionContext : Unsafe.As<ExecutionContext?>(_contexts);

    /// <summary>Records the contexts of a suspension, which must continue in <paramref name="captured"/> if it is not null.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void SetContexts(ExecutionContext? executionContext, object? captured)
    {
        // A reused continuation usually suspends in the contexts it did last time: no write barrier then.
        if (captured is null)
        {
            if (_contexts != executionContext)
                _contexts = executionContext;
        }
        else if (_contexts is not FrameContexts both || both.ExecutionContext != executionContext || both.Captured != captured)
            _contexts = new FrameContexts(executionContext, captured);
    }

    /// <summary>Both contexts of a frame that has a SynchronizationContext or TaskScheduler to come back to.</summary>
    private sealed class FrameContexts(ExecutionContext? executionContext, object captured)
    {
        public readonly ExecutionContext? ExecutionContext = executionContext;
        public readonly object Captured = captured;
    }

    /// <summary>
    /// Re-enters the suspended method at <see cref="State"/>. On completion a value-returning
    /// frame stores its result in <see cref="Continuation{T}.Result"/>; if it suspends again, it
    /// links itself into <paramref name="chain"/> instead.
    /// </summary>
    public abstract void Resume(ref AsyncChain chain);

    /// <summary>
    /// Rethrows <see cref="AsyncChain.Fault"/> where the frame is suspended, as its resumed await
    /// would, for an exception that passes through the frame after a suspension without being
    /// caught there (PassThroughFrames.cs). The rewriter overrides it with one branch per await of
    /// another rewritten method, each on that await's source line (Rewrite/PassThroughEmitter.cs):
    /// the frame then shows in the exception's stack trace as one stack frame that the exception
    /// unwinds, where resuming it takes two (Resume and the variant). Any other frame is resumed.
    /// </summary>
    [StackTraceHidden]
    public virtual void PassFaultThrough(ref AsyncChain chain) => Resume(ref chain);

    void IAsyncStateMachine.MoveNext() => throw NotAStateMachine();

    void IAsyncStateMachine.SetStateMachine(IAsyncStateMachine stateMachine) => throw NotAStateMachine();

    private static NotSupportedException NotAStateMachine() =>
        new("An Async2 continuation is resumed by its chain's dispatcher, not as a state machine.");
}

/// <summary>A suspended frame of a method returning <typeparamref name="T"/>.</summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public abstract class Continuation<T> : Continuation
{
    /// <summary>The value the frame returned when it completed after resumption.</summary>
    public T Result = default!;
}
