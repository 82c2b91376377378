using System.Diagnostics;

namespace Async2.Cli.Bench;

/// <summary>Runs a program that is not dotnet (wrk, go, apt-get) for the bench and captures what it prints.</summary>
internal static class ExternalTool
{
    /// <summary>Exit code and stdout + stderr; a run longer than <paramref name="timeout"/> is killed and throws.</summary>
    public static (int ExitCode, string Output) Capture(string file, string[] args, TimeSpan timeout)
    {
        var info = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var arg in args)
            info.ArgumentList.Add(arg);
        using var process = Process.Start(info) ?? throw new InvalidOperationException($"{file} did not start");
        var stderr = process.StandardError.ReadToEndAsync();
        var stdout = process.StandardOutput.ReadToEndAsync();
        if (!process.WaitForExit(timeout))
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit();
            throw new TimeoutException($"{file} did not finish within {timeout.TotalSeconds:F0} s");
        }
        return (process.ExitCode, stdout.GetAwaiter().GetResult() + stderr.GetAwaiter().GetResult());
    }
}
