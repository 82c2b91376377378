// OverrideDispatch: virtual calls from rewritten code to rewritten virtual methods.
//
// A rewritten virtual method M gets a virtual *entry* beside its variant M' (the rewriter's
// Rewrite/VirtualEntries.cs). Rewritten overrides of M override the entry too, so a rewritten
// caller holding a base reference reaches the most derived rewritten body through one virtual
// call, with no Task. Every other override of M in the same module (non-async, kept classic,
// abstract) gets an entry as well, which calls M and awaits its task. So when M's entry is
// reached, no class of M's module between the object's class and M's overrides M; only a class
// of another module (never rewritten, rewritten on its own, or made at run time by a proxy or
// mocking library) may override M without overriding the entry. The entry therefore checks that
// every class from the object's up to its own is of its own module (an exact-type test, then a
// per-type cache); if not, it calls M virtually and awaits the task here, which is right whoever
// overrides M. The check reads no methods by reflection, which trimming and NativeAOT do not keep.
//
// Keep in sync: Rewrite/VirtualEntries.cs (which overrides get entries, the call to RunsOwnBody),
// Rewrite/InterfaceEntries.cs (the interface entries' guards, IsRuntimeProxy), and ChainRoot.cs and
// BuilderRoot.cs, which ask a frame standing in for an override what to wait for (NotifierKind.StandIn).
// Only the cache miss and the foreign-override path cost anything; both stay off the hot path of
// a rewritten override called on its own type.
using System.Collections.Concurrent;
using System.ComponentModel;
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace Async2.Runtime;

[EditorBrowsable(EditorBrowsableState.Never)]
[StackTraceHidden]
public static class OverrideDispatch
{
    private static readonly ConcurrentDictionary<(IntPtr Type, IntPtr DeclaringType), bool> s_runsOwnBody = new();

    /// <summary>
    /// Whether the entry of <paramref name="declaringType"/>'s method runs that method's body for
    /// <paramref name="self"/>: every class from the object's up to <paramref name="declaringType"/>
    /// is of <paramref name="declaringType"/>'s assembly, whose overrides all have entries of their own.
    /// The answer is cached by type handle, except for a type of a collectible AssemblyLoadContext
    /// (a plugin's): its handle is freed when the context unloads and may be given to another type.
    /// </summary>
    public static bool RunsOwnBody(object self, RuntimeTypeHandle declaringType)
    {
        var type = self.GetType();
        var key = (type.TypeHandle.Value, declaringType.Value);
        if (s_runsOwnBody.TryGetValue(key, out bool runsOwnBody))
            return runsOwnBody;
        runsOwnBody = OnlyClassesOfItsAssemblyBelow(type, Type.GetTypeFromHandle(declaringType)!);
        if (!type.IsCollectible)
            s_runsOwnBody.TryAdd(key, runsOwnBody);
        return runsOwnBody;
    }

    /// <summary>
    /// Whether <paramref name="self"/> is a System.Reflection.DispatchProxy, a class made at run
    /// time that implements every virtual member of an interface, Async2's internal entries too
    /// (it ignores access checks), and answers each call itself: an interface entry must not be
    /// called on it (Rewrite/InterfaceEntries.cs, the guards).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsRuntimeProxy(object self) => self is System.Reflection.DispatchProxy;

    private static bool OnlyClassesOfItsAssemblyBelow(Type type, Type declaringType)
    {
        for (var below = type; below != declaringType; below = below.BaseType)
        {
            if (below is null || below.Assembly != declaringType.Assembly)
                return false;
        }
        return true;
    }

    // Awaiting the task of a foreign override. A completed task costs nothing more; otherwise a
    // one-field frame stands in for the override, as if it were a rewritten leaf awaiting its task.
    // It runs no user code, so it waits as its caller's await of the task would have: on the
    // captured context where the caller continues on it (then a task completing on that context
    // resumes both inline, as classic does; a ValueTask's source is told UseSchedulingContext even
    // where there is no context to capture, as classic tells it), and without one where the caller
    // awaited with ConfigureAwait(false), which the rewrite took off the call (waiting with the
    // context captured posted there, and a caller blocking on it, sync over async, waited forever).
    // The caller says which as it links (AsyncChain.LinkAwaitingCallee), and has linked by the
    // time the root registers, so the root asks the stand-in then (NotifierKind.StandIn).
    // Its notifier resumes it where the caller's await continues, so the dispatcher runs the caller
    // right after it without moving it to its captured context again (a second hop: a TaskScheduler
    // was asked twice per await; corpus sched_foreign_overrides).
    // A ValueTask is waited for through its own awaiter, not AsTask, so its source is asked with
    // the flags classic async gives it.

    public static void Await(Task task, ref AsyncChain chain)
    {
        if (task.IsCompleted)
        {
            task.GetAwaiter().GetResult();
            return;
        }
        StandIn(new TaskFrame(task), ref chain);
    }

    public static T Await<T>(Task<T> task, ref AsyncChain chain)
    {
        if (task.IsCompleted)
            return task.GetAwaiter().GetResult();
        StandIn(new TaskFrame<T>(task), ref chain);
        return default!;
    }

    public static void Await(ValueTask task, ref AsyncChain chain)
    {
        if (task.IsCompleted)
        {
            task.GetAwaiter().GetResult();
            return;
        }
        StandIn(new ValueTaskFrame(task), ref chain);
    }

    public static T Await<T>(ValueTask<T> task, ref AsyncChain chain)
    {
        if (task.IsCompleted)
            return task.GetAwaiter().GetResult();
        StandIn(new ValueTaskFrame<T>(task), ref chain);
        return default!;
    }

    private static void StandIn<TFrame>(TFrame frame, ref AsyncChain chain) where TFrame : Continuation, IStandInFrame
    {
        chain.WaitForStandIn(frame);
        chain.Link(frame);
    }

    [StackTraceHidden]
    private sealed class TaskFrame(Task task) : Continuation, IStandInFrame
    {
        public bool CallerContinuesOnCapturedContext { get; set; }

        public (object Notifier, NotifierKind Kind) WhatToWaitFor() =>
            CallerContinuesOnCapturedContext ? (task, NotifierKind.Task) : (task.ConfigureAwait(false).GetAwaiter(), NotifierKind.UnsafeAwaiter);

        public override void Resume(ref AsyncChain chain) => task.GetAwaiter().GetResult();
    }

    [StackTraceHidden]
    private sealed class TaskFrame<T>(Task<T> task) : Continuation<T>, IStandInFrame
    {
        public bool CallerContinuesOnCapturedContext { get; set; }

        public (object Notifier, NotifierKind Kind) WhatToWaitFor() =>
            CallerContinuesOnCapturedContext ? (task, NotifierKind.Task) : (task.ConfigureAwait(false).GetAwaiter(), NotifierKind.UnsafeAwaiter);

        public override void Resume(ref AsyncChain chain) => Result = task.GetAwaiter().GetResult();
    }

    [StackTraceHidden]
    private sealed class ValueTaskFrame(ValueTask task) : Continuation, IStandInFrame
    {
        public bool CallerContinuesOnCapturedContext { get; set; }

        public (object Notifier, NotifierKind Kind) WhatToWaitFor() =>
            CallerContinuesOnCapturedContext ? (task.GetAwaiter(), NotifierKind.UnsafeAwaiter) : (task.ConfigureAwait(false).GetAwaiter(), NotifierKind.UnsafeAwaiter);

        public override void Resume(ref AsyncChain chain) => task.GetAwaiter().GetResult();
    }

    [StackTraceHidden]
    private sealed class ValueTaskFrame<T>(ValueTask<T> task) : Continuation<T>, IStandInFrame
    {
        public bool CallerContinuesOnCapturedContext { get; set; }

        public (object Notifier, NotifierKind Kind) WhatToWaitFor() =>
            CallerContinuesOnCapturedContext ? (task.GetAwaiter(), NotifierKind.UnsafeAwaiter) : (task.ConfigureAwait(false).GetAwaiter(), NotifierKind.UnsafeAwaiter);

        public override void Resume(ref AsyncChain chain) => Result = task.GetAwaiter().GetResult();
    }
}

/// <summary>A frame standing in for a non-async override (<see cref="NotifierKind.StandIn"/>).</summary>
internal interface IStandInFrame
{
    /// <summary>Set by the caller as it links, when its await of the override continues on the captured context (no ConfigureAwait(false)).</summary>
    bool CallerContinuesOnCapturedContext { set; }

    /// <summary>What the root registers with, as the caller's own await of the override's task would.</summary>
    (object Notifier, NotifierKind Kind) WhatToWaitFor();
}
