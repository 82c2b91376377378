using System.Diagnostics;

namespace Async2.Cli.Bench;

/// <summary>Runs a program that is not dotnet (wrk, go, apt-get) for the bench and captures what it prints, and installs one from Debian when it is missing.</summary>
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

    /// <summary>
    /// apt-get update, then apt-get install <paramref name="package"/>; null when <paramref name="installed"/>
    /// holds afterwards, else what went wrong (for the cell that cannot be measured).
    /// </summary>
    public static string? InstallFromDebian(string package, Func<bool> installed)
    {
        try
        {
            Capture("apt-get", ["update"], TimeSpan.FromMinutes(5));
            var (exitCode, output) = Capture("apt-get", ["install", "-y", "--no-install-recommends", package], TimeSpan.FromMinutes(10));
            if (exitCode != 0)
                return $"apt-get install {package} exited with {exitCode}: {output.Trim().Split('\n').LastOrDefault()}";
            return installed() ? null : $"apt-get installed {package}, but it is still not on PATH";
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or TimeoutException)
        {
            return $"cannot run apt-get: {e.Message}";
        }
    }
}
