// StackGuard: deep async recursion continues on a fresh stack instead of overflowing.
//
// Classic async runs every synchronously completing await on the caller's stack, so
// `return 1 + await CountAsync(n - 1)` a million levels deep overflows the stack. A rewritten
// variant that calls other variants starts with `if (StackGuard.MustSuspend(ref chain))`, a
// suspension point of its own placed before its first instruction (Rewrite/StackGuardEmitter.cs).
// When the stack runs low, the variant suspends there: the frames below it unwind into
// continuations, as at any suspension, and the dispatcher resumes the chain from a posted work
// item, on a fresh stack, in the same SynchronizationContext or TaskScheduler (Task.Yield's rules).
//
// The hot path is one address comparison against AsyncChain.StackFloor, which the chain's owner
// (Task thunk or dispatcher) sets one budget below where it starts. Only crossing the floor asks
// the runtime how much stack is left, and moves the floor down by another budget if enough is.
//
// An exception thrown at the bottom of such a synchronous descent takes stack of its own where
// rewritten code catches it only to rethrow it (a call awaited under an exception filter:
// Rewrite/AwaitNormalizer.cs; a context scope: Rewrite/ContextScopeEmitter.cs): a rethrow inside
// the handler starts the next exception dispatch above the one still running, one more per such
// frame. Where the stack runs low, the handler leaves first and the frame throws the exception again
// (RethrowsOutsideHandler), as classic async's caller throws again from a shallow stack.
using System.ComponentModel;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;

namespace Async2.Runtime;

[EditorBrowsable(EditorBrowsableState.Never)]
public static class StackGuard
{
    /// <summary>
    /// Stack a chain may use between two checks. RuntimeHelpers.TryEnsureSufficientExecutionStack
    /// vouches for more than this (128 KB on 64-bit), so a budget spent after a successful check
    /// still leaves room for whatever non-async code runs below.
    /// </summary>
    internal const int Budget = 64 * 1024;

    /// <summary>Whether the calling variant must suspend at its entry to continue on a fresh stack.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static unsafe bool MustSuspend(ref AsyncChain chain)
    {
        byte here;
        return (nuint)(&here) < chain.StackFloor && OutOfStack(ref chain);
    }

    /// <summary>Sets the floor of a chain started here.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static unsafe void SetFloor(ref AsyncChain chain)
    {
        byte here;
        chain.StackFloor = (nuint)(&here) - Budget;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool OutOfStack(ref AsyncChain chain)
    {
        if (RuntimeHelpers.TryEnsureSufficientExecutionStack())
        {
            SetFloor(ref chain);
            return false;
        }
        // As Task.Yield: posted to the current context, or queued to the thread pool.
        chain.WaitForYield();
        return true;
    }

    /// <summary>
    /// Whether a handler that catches <paramref name="thrown"/> only to rethrow it must leave first,
    /// for the frame to throw it again (<see cref="ThrowAgain"/>): only when the stack runs low, since
    /// that throw adds a separator line and the frame once more to the exception's stack trace, where
    /// the rethrow adds nothing. An object that is no Exception (thrown by IL) is rethrown in place.
    /// </summary>
    public static bool RethrowsOutsideHandler(object thrown) =>
        thrown is Exception && !RuntimeHelpers.TryEnsureSufficientExecutionStack();

    /// <summary>Throws <paramref name="thrown"/> again, keeping its stack trace (<see cref="RethrowsOutsideHandler"/>).</summary>
    [StackTraceHidden]
    public static void ThrowAgain(object thrown) => ExceptionDispatchInfo.Throw((Exception)thrown);
}
