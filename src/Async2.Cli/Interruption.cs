using System.Runtime.InteropServices;

namespace Async2.Cli;

/// <summary>
/// Ctrl+C and SIGTERM while async2 works: the first stops the work at its next step through
/// <see cref="Token"/>, so a rewrite removes what it began to write (RewriteRequest.Cancellation)
/// and the command exits with <see cref="ExitCodes.Interrupted"/>; a second one ends the process
/// at once, as without this. While <c>run</c>'s app runs, ChildProcess.SignalRelay keeps this
/// process alive instead, whatever this class does.
/// </summary>
internal static class Interruption
{
    private static readonly CancellationTokenSource s_source = new();
    private static readonly List<PosixSignalRegistration> s_registrations = [];

    public static CancellationToken Token => s_source.Token;

    /// <summary>Whether <paramref name="e"/> is the work stopping because a signal asked it to.</summary>
    public static bool Stopped(Exception e) => e is OperationCanceledException && s_source.IsCancellationRequested;

    public static void Listen()
    {
        s_registrations.Add(PosixSignalRegistration.Create(PosixSignal.SIGINT, Stop));
        s_registrations.Add(PosixSignalRegistration.Create(PosixSignal.SIGTERM, Stop));
    }

    private static void Stop(PosixSignalContext context)
    {
        if (s_source.IsCancellationRequested)
            return;
        context.Cancel = true;
        s_source.Cancel();
    }
}
