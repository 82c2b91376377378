namespace Async2.Cli;

/// <summary>Process exit codes shared by every command.</summary>
internal static class ExitCodes
{
    public const int Success = 0;

    /// <summary>The command line was fine but the work could not be done.</summary>
    public const int Failure = 1;

    /// <summary>The command line is wrong (the parser's errors; Program.ReportUsageErrors).</summary>
    public const int Usage = 2;

    /// <summary>Ctrl+C or SIGTERM stopped the work (Interruption): 128 + SIGINT's number, as shells report it.</summary>
    public const int Interrupted = 130;
}

/// <summary>
/// A failure the user can act on, once the command line parsed. Program prints its message as is
/// (no stack trace) and exits with <see cref="ExitCodes.Failure"/>. Messages follow one shape:
/// what failed and where, then why, then what to do.
/// </summary>
internal sealed class CliException(string message) : Exception(message)
{
    public static CliException Failure(string what, string why, string fix) =>
        new($"error: {what}{Environment.NewLine}  why: {why}{Environment.NewLine}  fix: {fix}");
}
