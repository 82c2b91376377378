// Dispatcher: resumes a suspended chain, innermost frame first, in one loop (no recursion, so a
// chain of any length resumes in constant stack), and has its root act on how the dispatch ended.
//
// Each step resumes one frame. A frame that completes hands its result to the next through
// AsyncChain.Completed; a frame that throws hands the exception on through AsyncChain.Fault, and
// frames that did not suspend inside a protected region are not resumed one by one (their code
// would only rethrow): the exception is rethrown through them together, to keep them in its stack
// trace (PassThroughFrames.cs), and handed to the next frame that can catch it. The chain ends at
// the outermost frame (its Next is null): the dispatch then returns it, or the exception it ended
// with, for the root to complete the Task with (ChainRoot.cs, BuilderRoot.cs). If a resumed frame
// suspends again, the new inner frames are spliced in front of the rest of the chain and the root
// waits for the new notifier. A frame that awaited its callee in a SynchronizationContext or
// TaskScheduler is resumed there: the root continues the dispatch in that context
// (ResumeContext.cs). What happens at each end is the root's (IDispatchEnds): a ChainRoot object
// is called there; a root in a builder's box (BuilderRoot.cs) records it and acts on it itself. The
// chain a frame is resumed with is a local of the loop: passed in by reference, it cost a write
// barrier per reference field on every frame (bench "suspend": +20%). Every frame is resumed in
// the ExecutionContext it suspended in, unless its callee runs in flowing context mode
// (ContinuationFlags.FlowsContextsToCaller), whose context it inherits. The root is no caller: it
// completes the Task right where the outermost frame finished, as classic async's builder does
// (queued to the thread pool instead, it kept a thread that blocks on the Task, as Nito.AsyncEx's
// AsyncContext.Run does, waiting for a pool thread); only when that frame was passed
// through, not resumed, does the root continue where that frame would have run.
using System.Diagnostics;
using System.Runtime.ExceptionServices;

namespace Async2.Runtime;

/// <summary>
/// What a dispatch does where it ends, for the chain's root: the dispatcher is compiled once per
/// kind of root (a struct type argument), so neither pays for the other's way.
/// </summary>
internal interface IDispatchEnds
{
    /// <summary>
    /// Whether the root puts the thread's ExecutionContext and SynchronizationContext back after the
    /// dispatch (it runs in ExecutionContext.Run or a builder's box): a first frame that is also the
    /// outermost then leaves that to it (<see cref="ContinuationFlags.HasContextScope"/>).
    /// </summary>
    bool RootRestoresContexts { get; }

    /// <summary>The thread the dispatch runs on, read once by the root (<see cref="AsyncChain.Thread"/>).</summary>
    Thread Thread { get; }

    /// <summary>
    /// When the dispatch runs inside the root's own registration with the notifier, which called
    /// the continuation at once (an awaiter's OnCompleted, a SynchronizationContext's Post or a
    /// TaskScheduler that runs it inline): the outermost frame of the suspension being registered
    /// (its chain's Tail); otherwise null. The frames before it were linked in that suspension, and
    /// classic async's callers of theirs find them complete when they await them and go on in their
    /// own contexts, so their scopes put those back. Its own caller, and those after it, awaited
    /// before: they go on in what it leaves, as after any other resumption.
    /// </summary>
    Continuation? OutermostLinkedInRegistration { get; }

    /// <summary>The awaiter box the root registered with last, for a frame that suspends on the same awaiter type again (<see cref="AsyncChain.ReusableNotifier"/>).</summary>
    object? ReusableNotifier { get; }

    /// <summary>
    /// A frame suspended again; <paramref name="chain"/> holds the new suspension, linked to the
    /// rest. <paramref name="outermostLinked"/>: the outermost frame linked in the registration that
    /// follows, the new suspension's Tail, or <see cref="OutermostLinkedInRegistration"/> if the
    /// dispatch has not passed it yet (that registration is nested in the one the dispatch runs inside).
    /// </summary>
    void Suspended(ref AsyncChain chain, Continuation outermostLinked);

    /// <summary>The dispatch must go on in <paramref name="context"/>, at <paramref name="frame"/> (null: past the outermost frame);
    /// <paramref name="outermostLinkedInRegistration"/>: <see cref="OutermostLinkedInRegistration"/> if the dispatch has not passed it yet.</summary>
    void Moved(object context, Continuation? frame, Continuation? completed, ExceptionDispatchInfo? fault, Continuation? outermostLinkedInRegistration);

    /// <summary>The outermost frame completed, or the chain ended with <paramref name="fault"/>.</summary>
    void Completed(Continuation outermost, ExceptionDispatchInfo? fault);
}

internal static class Dispatcher
{
    /// <summary>
    /// The frame this thread's innermost dispatch is resuming: where AsyncStackTrace finds the
    /// awaiting callers. Recorded only under the AppContext switch Async2.LogicalStackTraces: the
    /// thread-static stores cost about 4 ns per resumption (bench "suspend"), and with the switch off
    /// (read once, a constant to the JIT) the dispatcher does not touch it at all.
    /// </summary>
    [ThreadStatic]
    internal static Continuation? Resumed;

    internal static readonly bool RecordsResumedFrames =
        AppContext.TryGetSwitch("Async2.LogicalStackTraces", out bool records) && records;

    /// <summary>
    /// Resumes <paramref name="first"/> here and now, then the frames after it, each with the
    /// outcome of the one before (<paramref name="completed"/>/<paramref name="fault"/>: the
    /// outcome handed to the first, when the dispatch continues in another context; a null
    /// <paramref name="first"/> continues past the outermost frame), until the chain completes,
    /// suspends again or must continue in another context, where <paramref name="ends"/> acts on it.
    /// </summary>
    [StackTraceHidden]
    internal static void Run<TEnds>(ref TEnds ends, Continuation? first, Continuation? completed = null, ExceptionDispatchInfo? fault = null)
        where TEnds : struct, IDispatchEnds, allows ref struct
    {
        if (!RecordsResumedFrames)
        {
            RunFrames(ref ends, first, completed, fault);
            return;
        }
        // A dispatch may run nested in a resumed frame (a chain completing inline): the outer one's is put back.
        var outerResumed = Resumed;
        try
        {
            RunFrames(ref ends, first, completed, fault);
        }
        finally
        {
            Resumed = outerResumed;
        }
    }

    [StackTraceHidden]
    private static void RunFrames<TEnds>(ref TEnds ends, Continuation? first, Continuation? completed, ExceptionDispatchInfo? fault)
        where TEnds : struct, IDispatchEnds, allows ref struct
    {
        Continuation? frame = first;
        Continuation? passThrough = null;
        int passThroughCount = 0;
        // Whether `completed` was passed through (not resumed): then it did not run here, and the
        // root, which completes the Task in its place, goes where it would have continued.
        bool completedPassedThrough = false;
        // A head resumed by its notifier runs in its own ExecutionContext already (ChainRoot);
        // a dispatch continued in another context (ResumeContext) starts after a callee completed.
        bool inFrameContext = completed is null;
        // Whether a caller that captured no context may continue here (ResumeContext.AllowsInlining),
        // read once rather than per frame: the TaskScheduler stays while the loop runs, and only a
        // callee in flowing mode or one whose scope left its contexts here can change the
        // SynchronizationContext.
        bool? inliningAllowed = null;
        Continuation? outermostLinkedInRegistration = ends.OutermostLinkedInRegistration;
        Thread thread = ends.Thread;
        while (true)
        {
            // In flowing mode the callee's contexts are the caller's: nothing is put back.
            var calleeFlags = completed?.Flags ?? ContinuationFlags.None;
            bool calleeFlows = (calleeFlags & ContinuationFlags.FlowsContextsToCaller) != 0;
            if ((calleeFlags & (ContinuationFlags.FlowsContextsToCaller | ContinuationFlags.HasContextScope)) != 0)
                inliningAllowed = null;

            // A caller frame continues in the context it awaited in (the first frame is where its
            // notifier or the context it moved to resumed it, already the right place), also one
            // that only passes an exception on: classic async's continuation rethrows it there.
            // Past the outermost frame, the root finishes that frame's work: it moves only for a
            // frame passed through, unless the dispatch moved to that frame's context already.
            Continuation? continuing = frame ?? (completedPassedThrough && completed != first ? completed : null);
            if (frame != first && continuing is not null
                && ContextToContinueIn(continuing, completed, first, thread, ref inliningAllowed) is { } target)
            {
                // Rethrown through here, where they were left, rather than carried along.
                if (passThrough is not null)
                    fault = PassThroughFrames.RethrowThrough(passThrough, passThroughCount, fault!);
                ends.Moved(target, frame, completed, fault, outermostLinkedInRegistration);
                return;
            }

            if (fault is not null && frame is not null && !HandlesExceptions(frame))
            {
                // This frame and the next few cannot catch the exception: it goes on to the first
                // that can, which rethrows it through them (nested, in one throw) only to show them
                // in its stack trace; past the outermost frame, it is rethrown through them here.
                // Each still passes it on in its own context mode, and a frame that must continue
                // in another context ends the run: the dispatch moves there first.
                Continuation run = frame;
                int count = 0;
                ExecutionContext? rethrownIn = null;
                do
                {
                    // Classic async rethrows in each frame's own context: the last that saved one is
                    // where a caller that saved none catches, and where the root completes the Task.
                    if ((completed is null || (completed.Flags & ContinuationFlags.FlowsContextsToCaller) == 0) && frame.SavedExecutionContext is { } saved)
                        rethrownIn = saved;
                    if (frame == outermostLinkedInRegistration)
                        outermostLinkedInRegistration = null;
                    completed = frame;
                    frame = frame.Next;
                    count++;
                }
                while (frame is not null && !HandlesExceptions(frame) && count < PassThroughFrames.MaxNesting
                    && ContextToContinueIn(frame, completed, first, thread, ref inliningAllowed) is null);
                if (rethrownIn is not null)
                    ThreadExecutionContext.PutBack(thread, rethrownIn);
                completedPassedThrough = true;
                if (!PassThroughFrames.ShownInStackTraces)
                    continue;
                if (frame is not null && HandlesExceptions(frame))
                    (passThrough, passThroughCount) = (run, count);
                else
                    fault = PassThroughFrames.RethrowThrough(run, count, fault);
                continue;
            }

            if (frame is null)
            {
                ends.Completed(completed!, fault);
                return;
            }

            Continuation? rest = frame.Next;
            if (!inFrameContext && !calleeFlows && frame.SavedExecutionContext is { } executionContext)
                ThreadExecutionContext.PutBack(thread, executionContext);
            inFrameContext = false;
            var chain = new AsyncChain { Thread = thread, Completed = completed, Fault = fault, PassThroughInnermost = passThrough, PassThroughCount = passThroughCount, ReusableNotifier = ends.ReusableNotifier };
            // The chain's only frame changes no caller's contexts but the root's, which puts them
            // back: its scope is lent to the root, as a Task thunk lends a variant's. Any other
            // resumed frame's scope leaves the contexts it finishes in to this loop, which treats
            // them as classic async's continuation of the caller does, unless its caller was linked
            // in the registration this dispatch runs inside (OutermostLinkedInRegistration).
            if ((frame.Flags & ContinuationFlags.HasContextScope) != 0)
            {
                if (ends.RootRestoresContexts && rest is null && frame == first)
                    chain.LendContextScope();
                else if (outermostLinkedInRegistration is null || (frame == outermostLinkedInRegistration && rest is not null))
                    chain.ScopeLending = ScopeLending.ContextsOnCompletion;
            }
            (passThrough, passThroughCount) = (null, 0);
            StackGuard.SetFloor(ref chain);
            if (RecordsResumedFrames)
                Resumed = frame;
            fault = ResumeCatching(frame, ref chain);

            if (chain.Head is not null)
            {
                // A reused frame usually links to the same caller: no write barrier then.
                if (chain.Tail!.Next != rest)
                    chain.Tail.Next = rest;
                ends.Suspended(ref chain, outermostLinkedInRegistration ?? chain.Tail);
                return;
            }

            if (frame == outermostLinkedInRegistration)
                outermostLinkedInRegistration = null;
            completed = frame;
            completedPassedThrough = false;
            frame = rest;
        }
    }

    /// <summary>
    /// Resumes one frame and returns what it threw. Outside the loop: the JIT keeps every local
    /// live across a try in memory, which cost the loop its registers.
    /// </summary>
    [StackTraceHidden]
    private static ExceptionDispatchInfo? ResumeCatching(Continuation frame, ref AsyncChain chain)
    {
        try
        {
            frame.Resume(ref chain);
            return null;
        }
        catch (Exception exception)
        {
            chain.Head = null;
            return ExceptionDispatchInfo.Capture(exception);
        }
    }

    private static bool HandlesExceptions(Continuation frame) => (frame.Flags & ContinuationFlags.HandlesExceptions) != 0;

    /// <summary>
    /// Where <paramref name="continuing"/>, awaiting <paramref name="completed"/>, must go on; null
    /// for here. After a callee in flowing mode, here: in the contexts current at the callee's
    /// return (seed 002). Otherwise where it awaited, unless that is current; with nothing
    /// captured, here only where classic async would run a continuation inline
    /// (ResumeContext.AllowsInlining): not under a context or scheduler the callee left behind,
    /// which would otherwise leak into the caller. A stand-in for a foreign override was waited for
    /// as its caller's own await of the override's task would have been (OverrideDispatch.cs):
    /// where its notifier resumed it is where that await continues, so the caller goes on there,
    /// not asked again.
    /// </summary>
    private static object? ContextToContinueIn(Continuation continuing, Continuation? completed, Continuation? first, Thread thread, ref bool? inliningAllowed)
    {
        if (completed is not null && (completed.Flags & ContinuationFlags.FlowsContextsToCaller) != 0)
            return null;
        object? target = continuing.CapturedContext switch
        {
            { } context when !ResumeContext.IsCurrent(context, thread) => context,
            SynchronizationContext when TaskScheduler.Current != TaskScheduler.Default => ResumeContext.OutsideTaskScheduler,
            null when !(inliningAllowed ??= ResumeContext.AllowsInlining(thread)) => TaskScheduler.Default,
            _ => null,
        };
        return target is not null && !(completed == first && completed is IStandInFrame) ? target : null;
    }
}
