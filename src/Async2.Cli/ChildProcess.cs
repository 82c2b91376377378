using System.Diagnostics;

namespace Async2.Cli;

/// <summary>Starts <c>dotnet</c> child processes with a controlled environment.</summary>
internal static class ChildProcess
{
    /// <summary>The dotnet host running this tool, so children use the same runtime.</summary>
    public static string DotnetHost =>
        Environment.ProcessPath is { } path && Path.GetFileNameWithoutExtension(path) == "dotnet" ? path : "dotnet";

    /// <summary>
    /// Runs <c>dotnet args</c> with this console (inherited stdio) and returns its exit code.
    /// <paramref name="runtimeAsync"/> decides whether the child gets DOTNET_RuntimeAsync=1; it is
    /// removed otherwise, so a rewritten app is really run by the stock runtime.
    /// </summary>
    public static int RunAttached(IEnumerable<string> args, bool runtimeAsync = false)
    {
        using var process = Process.Start(StartInfo(args, runtimeAsync, redirect: false))
            ?? throw CliException.Failure("could not start 'dotnet'.", "the process did not start", "check that the .NET SDK is on PATH");
        process.WaitForExit();
        return process.ExitCode;
    }

    /// <summary>Runs <c>dotnet args</c> and returns its exit code and combined output.</summary>
    public static (int ExitCode, string Output) RunCaptured(IEnumerable<string> args, bool runtimeAsync = false, string? workingDirectory = null)
    {
        var info = StartInfo(args, runtimeAsync, redirect: true);
        if (workingDirectory is not null)
            info.WorkingDirectory = workingDirectory;
        using var process = Process.Start(info)
            ?? throw CliException.Failure("could not start 'dotnet'.", "the process did not start", "check that the .NET SDK is on PATH");
        var stderr = process.StandardError.ReadToEndAsync();
        var stdout = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        return (process.ExitCode, stdout + stderr.Result);
    }

    private static ProcessStartInfo StartInfo(IEnumerable<string> args, bool runtimeAsync, bool redirect)
    {
        var info = new ProcessStartInfo(DotnetHost)
        {
            UseShellExecute = false,
            RedirectStandardOutput = redirect,
            RedirectStandardError = redirect,
        };
        foreach (var arg in args)
            info.ArgumentList.Add(arg);
        if (runtimeAsync)
            info.Environment["DOTNET_RuntimeAsync"] = "1";
        else
            info.Environment.Remove("DOTNET_RuntimeAsync");
        return info;
    }
}
