namespace Async2.Cli;

/// <summary>Process exit codes shared by every command.</summary>
internal static class ExitCodes
{
    public const int Success = 0;
    public const int Failure = 1;
    public const int Usage = 2;
}

/// <summary>
/// An error the user can act on. Program prints its message as is (no stack trace) and exits with
/// <see cref="ExitCode"/>. Messages follow one shape: what failed and where, then why, then what to do.
/// </summary>
internal sealed class CliException(string message, int exitCode) : Exception(message)
{
    public int ExitCode { get; } = exitCode;

    /// <summary>The command line itself is wrong (exit code 2); <paramref name="command"/> is null for the root.</summary>
    public static CliException Usage(string? command, string problem, string fix)
    {
        var help = command is null ? "async2 --help" : $"async2 {command} --help";
        return new(Format(problem, why: null, $"{fix} (see '{help}')"), ExitCodes.Usage);
    }

    /// <summary>The command line is fine but the work could not be done (exit code 1).</summary>
    public static CliException Failure(string what, string why, string fix) =>
        new(Format(what, why, fix), ExitCodes.Failure);

    private static string Format(string what, string? why, string fix)
    {
        var message = $"error: {what}";
        if (why is not null) message += $"{Environment.NewLine}  why: {why}";
        return message + $"{Environment.NewLine}  fix: {fix}";
    }
}
