// AwaitBridge: async2 -> async1. How a rewritten method awaits anything that is not another
// rewritten method: a Task, a ValueTask, their ConfigureAwait forms, or a custom awaiter.
//
// The rewriter turns `AsyncHelpers.Await(x)` into
//     if (AwaitBridge.Suspend(x, ref chain)) { <suspend this frame, keeping x> }
//     <resume point> ... AwaitBridge.GetResult(x)
// so the fast path is one IsCompleted test and GetResult is called exactly once per await
// (some ValueTask sources may be consumed only once). Suspend leaves what to wait on in the
// chain; the Task thunk or dispatcher at the root registers the resumption with it.
// Keep method names and parameter shapes in sync with Async2.Rewriter/RuntimeNames.cs.
using System.ComponentModel;
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace Async2.Runtime;

// Hidden from stack traces: an awaited task's exception rethrown by GetResult shows the awaiting frame, as in classic async.
[EditorBrowsable(EditorBrowsableState.Never)]
[StackTraceHidden]
public static class AwaitBridge
{
    // Task and Task<T>: the task itself is the notifier (no boxing); the root registers through
    // TaskAwaiter, which resumes on the captured SynchronizationContext/TaskScheduler.

    public static bool Suspend(Task task, ref AsyncChain chain)
    {
        if (task.IsCompleted)
            return false;
        chain.WaitFor(task);
        return true;
    }

    public static bool Suspend<T>(Task<T> task, ref AsyncChain chain) => Suspend((Task)task, ref chain);

    public static void GetResult(Task task) => task.GetAwaiter().GetResult();

    public static T GetResult<T>(Task<T> task) => task.GetAwaiter().GetResult();

    // The other awaitables box their awaiter as the notifier, only when the await suspends, and
    // into the box the chain's last suspension left when it can (AsyncChain.WaitForAwaiter).

    public static bool Suspend(ValueTask task, ref AsyncChain chain)
    {
        if (task.IsCompleted)
            return false;
        chain.WaitForAwaiter(task.GetAwaiter());
        return true;
    }

    public static bool Suspend<T>(ValueTask<T> task, ref AsyncChain chain)
    {
        if (task.IsCompleted)
            return false;
        chain.WaitForAwaiter(task.GetAwaiter());
        return true;
    }

    public static void GetResult(ValueTask task) => task.GetAwaiter().GetResult();

    public static T GetResult<T>(ValueTask<T> task) => task.GetAwaiter().GetResult();

    public static bool Suspend(ConfiguredTaskAwaitable awaitable, ref AsyncChain chain)
    {
        var awaiter = awaitable.GetAwaiter();
        if (awaiter.IsCompleted)
            return false;
        chain.WaitForAwaiter(awaiter);
        return true;
    }

    public static bool Suspend<T>(ConfiguredTaskAwaitable<T> awaitable, ref AsyncChain chain)
    {
        var awaiter = awaitable.GetAwaiter();
        if (awaiter.IsCompleted)
            return false;
        chain.WaitForAwaiter(awaiter);
        return true;
    }

    public static void GetResult(ConfiguredTaskAwaitable awaitable) => awaitable.GetAwaiter().GetResult();

    public static T GetResult<T>(ConfiguredTaskAwaitable<T> awaitable) => awaitable.GetAwaiter().GetResult();

    public static bool Suspend(ConfiguredValueTaskAwaitable awaitable, ref AsyncChain chain)
    {
        var awaiter = awaitable.GetAwaiter();
        if (awaiter.IsCompleted)
            return false;
        chain.WaitForAwaiter(awaiter);
        return true;
    }

    public static bool Suspend<T>(ConfiguredValueTaskAwaitable<T> awaitable, ref AsyncChain chain)
    {
        var awaiter = awaitable.GetAwaiter();
        if (awaiter.IsCompleted)
            return false;
        chain.WaitForAwaiter(awaiter);
        return true;
    }

    public static void GetResult(ConfiguredValueTaskAwaitable awaitable) => awaitable.GetAwaiter().GetResult();

    public static T GetResult<T>(ConfiguredValueTaskAwaitable<T> awaitable) => awaitable.GetAwaiter().GetResult();

    // Plain Tasks and ValueTasks awaited where seed 002's ConfigureAwait(false) attribute applies
    // (System.Runtime.CompilerServices.ConfigureAwaitAttribute): as if written with ConfigureAwait(false).
    // The rewriter pairs these with the plain GetResult overloads above.

    public static bool SuspendWithoutCapturedContext(Task task, ref AsyncChain chain) =>
        Suspend(task.ConfigureAwait(false), ref chain);

    public static bool SuspendWithoutCapturedContext<T>(Task<T> task, ref AsyncChain chain) =>
        Suspend(task.ConfigureAwait(false), ref chain);

    public static bool SuspendWithoutCapturedContext(ValueTask task, ref AsyncChain chain) =>
        Suspend(task.ConfigureAwait(false), ref chain);

    public static bool SuspendWithoutCapturedContext<T>(ValueTask<T> task, ref AsyncChain chain) =>
        Suspend(task.ConfigureAwait(false), ref chain);

    // Custom awaiters: Roslyn has already tested IsCompleted and calls GetResult itself after the
    // await, so these only record the awaiter and always report a suspension.

    /// <summary>Replaces <c>AsyncHelpers.AwaitAwaiter</c>: OnCompleted flows the ExecutionContext itself.</summary>
    public static bool SuspendOnAwaiter<TAwaiter>(TAwaiter awaiter, ref AsyncChain chain)
        where TAwaiter : INotifyCompletion
    {
        chain.WaitForFlowing(awaiter);
        return true;
    }

    /// <summary>Replaces <c>AsyncHelpers.UnsafeAwaitAwaiter</c>.</summary>
    public static bool UnsafeSuspendOnAwaiter<TAwaiter>(TAwaiter awaiter, ref AsyncChain chain)
        where TAwaiter : ICriticalNotifyCompletion
    {
        // A constant test in each instantiation over a struct: Task.Yield's awaiter is not boxed again.
        if (typeof(TAwaiter) == typeof(YieldAwaitable.YieldAwaiter))
            chain.WaitForYield();
        else
            chain.WaitFor(awaiter);
        return true;
    }

    /// <summary>Task.Yield's awaiter holds nothing, so one boxed copy serves every suspension on it.</summary>
    internal static readonly ICriticalNotifyCompletion BoxedYieldAwaiter = default(YieldAwaitable.YieldAwaiter);
}
