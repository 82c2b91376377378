// PassThroughFrames: puts the frames an exception skips after a suspension back into its stack trace.
//
// When a resumed frame throws, the dispatcher hands the exception to the next frame that had a
// protected region around its suspension point (ContinuationFlags.HandlesExceptions). The frames in
// between cannot catch it, so seed 002 skips them: resuming each would cost a throw per frame, the
// catch-and-rethrow classic async pays. But a skipped frame is missing from the exception's stack
// trace, which seed 002 also requires to hold every logical async frame.
//
// So the frame that catches the exception first re-enters the run of skipped frames nested, with
// the throw it makes anyway: its resumed await (AsyncChain.GetResult / ThrowIfFaulted, through
// AsyncChain.RethrowThroughPassThroughFrames, inlined there) has the outermost skipped frame
// rethrow at its await with the same chain (Continuation.PassFaultThrough, generated per
// continuation class on the await's source line: Rewrite/PassThroughEmitter.cs), which has the
// next inner one do the same, and so on; the innermost rethrows the exception, which unwinds
// through all of them and on into the catching frame as one ordinary exception, each frame adding
// itself, innermost first, with its await's line. Where no frame catches it (past the outermost,
// for the root to fault the Task with), where a run is cut, or where the catching frame must be
// resumed elsewhere, the dispatcher calls RethrowThrough instead, a throw more. Either way the
// cost is the runtime's unwinding of one stack frame per skipped frame (bench/README.md), against
// a catch and a rethrow per frame in classic async, and nothing when skipped.
// Runs are cut at MaxNesting frames, and where the stack runs low, to bound the stack they take.
//
// .NET 10's runtime async (DOTNET_RuntimeAsync=1) leaves such frames out of the trace; .NET 11's
// keeps them by having the runtime add them without unwinding, which a library cannot do
// (bench/README.md, "How .NET 11 keeps complete traces for less").
// An application that prefers short traces, for cheaper exceptions, sets the AppContext switch
// "Async2.CompleteStackTraces" to false (runtimeconfig.json configProperties, or
// <RuntimeHostConfigurationOption> in the project).
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;

namespace Async2.Runtime;

internal static class PassThroughFrames
{
    /// <summary>The AppContext switch that, set to false, leaves pass-through frames out of stack traces.</summary>
    internal const string CompleteStackTracesSwitch = "Async2.CompleteStackTraces";

    /// <summary>Most frames rethrown through by one throw.</summary>
    internal const int MaxNesting = 64;

    internal static readonly bool ShownInStackTraces =
        !AppContext.TryGetSwitch(CompleteStackTracesSwitch, out bool complete) || complete;

    /// <summary>
    /// Throws <paramref name="fault"/> from the branch of Continuation.PassFaultThrough for await
    /// <paramref name="state"/> (AsyncChain.ThrowIfFaulted(int)); the state is there only to tell
    /// the branches' calls apart. Not inlined, or they would look alike again.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    [StackTraceHidden]
    [DoesNotReturn]
    internal static void Throw(ExceptionDispatchInfo fault, int state) => fault.Throw();

    /// <summary>
    /// Rethrows <paramref name="fault"/> through the <paramref name="count"/> frames that start at
    /// <paramref name="innermost"/> (following <see cref="Continuation.Next"/>), and returns it
    /// with them in its stack trace.
    /// </summary>
    [StackTraceHidden]
    internal static ExceptionDispatchInfo RethrowThrough(Continuation innermost, int count, ExceptionDispatchInfo fault)
    {
        var chain = new AsyncChain { Fault = fault, PassThroughInnermost = innermost, PassThroughCount = count };
        try
        {
            chain.RethrowThroughPassThroughFrames();
        }
        catch (Exception exception)
        {
            return ExceptionDispatchInfo.Capture(exception);
        }
        return fault;
    }
}
