// Dispatcher: resumes a suspended chain, innermost frame first, in one loop (no recursion, so a
// chain of any length resumes in constant stack).
//
// Each step resumes one frame. A frame that completes hands its result to the next through
// AsyncChain.Completed; a frame that throws hands the exception on through AsyncChain.Fault, and
// frames that did not suspend inside a protected region are skipped without being called (their
// code would only rethrow). The chain's last frame is always the ChainRoot that completes the
// Task, so the loop ends there. If a resumed frame suspends again, the new inner frames are
// spliced in front of the rest of the chain and the root waits for the new notifier.
using System.Diagnostics;
using System.Runtime.ExceptionServices;

namespace Async2.Runtime;

internal static class Dispatcher
{
    [StackTraceHidden]
    internal static void Run(Continuation head, ChainRoot root)
    {
        Continuation? frame = head;
        Continuation? completed = null;
        ExceptionDispatchInfo? fault = null;
        while (frame is not null)
        {
            Continuation? rest = frame.Next;
            if (fault is not null && (frame.Flags & ContinuationFlags.HandlesExceptions) == 0)
            {
                frame = rest;
                continue;
            }

            var chain = new AsyncChain { Completed = completed, Fault = fault };
            try
            {
                frame.Resume(ref chain);
                fault = null;
            }
            catch (Exception exception)
            {
                fault = ExceptionDispatchInfo.Capture(exception);
                chain.Head = null;
            }

            if (chain.Head is not null)
            {
                chain.Tail!.Next = rest;
                root.AwaitNotifier(ref chain);
                return;
            }

            completed = frame;
            frame = rest;
        }
    }
}
