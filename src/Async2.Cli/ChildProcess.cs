using System.Diagnostics;
using System.Runtime.InteropServices;

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
    /// removed otherwise, so a rewritten app is really run by the stock runtime. <paramref name="runtime"/>,
    /// when given, runs the child on that runtime instead of the one running this tool.
    /// </summary>
    public static int RunAttached(IEnumerable<string> args, bool runtimeAsync = false, Runtimes.RuntimeRoot? runtime = null)
    {
        using var process = Process.Start(StartInfo(args, runtimeAsync, redirect: false, runtime))
            ?? throw CliException.Failure("could not start 'dotnet'.", "the process did not start", "check that the .NET SDK is on PATH");
        using var signals = new SignalRelay(process);
        process.WaitForExit();
        return process.ExitCode;
    }

    /// <summary>
    /// While an attached child runs, this tool stands aside: Ctrl+C and Ctrl+\ reach the child
    /// directly (same console and process group), so this process ignores them and waits for the
    /// child's exit code; SIGTERM and SIGHUP sent to this process alone (kill, docker stop,
    /// systemd, a closed terminal) are passed on to the child, so it can shut down gracefully
    /// rather than be orphaned.
    /// </summary>
    private sealed class SignalRelay : IDisposable
    {
        private readonly List<PosixSignalRegistration> _registrations = [];

        public SignalRelay(Process child)
        {
            _registrations.Add(PosixSignalRegistration.Create(PosixSignal.SIGINT, context => context.Cancel = true));
            _registrations.Add(PosixSignalRegistration.Create(PosixSignal.SIGQUIT, context => context.Cancel = true));
            if (OperatingSystem.IsWindows())
                return; // no signals to pass on: console events reach the child by themselves
            _registrations.Add(PosixSignalRegistration.Create(PosixSignal.SIGTERM, context => PassOn(context, child, SignalNumbers.Terminate)));
            _registrations.Add(PosixSignalRegistration.Create(PosixSignal.SIGHUP, context => PassOn(context, child, SignalNumbers.HangUp)));
        }

        private static void PassOn(PosixSignalContext context, Process child, int signal)
        {
            context.Cancel = true;
            if (!child.HasExited)
                SignalNumbers.Send(child.Id, signal);
        }

        public void Dispose()
        {
            foreach (var registration in _registrations)
                registration.Dispose();
        }
    }

    private static class SignalNumbers
    {
        // The same on Linux and macOS.
        public const int HangUp = 1;
        public const int Terminate = 15;

        public static void Send(int processId, int signal) => kill(processId, signal);

        [DllImport("libc", SetLastError = true)]
        private static extern int kill(int pid, int sig);
    }

    /// <summary>Runs <c>dotnet args</c> (on <paramref name="runtime"/> when given) and returns its exit code and combined output.</summary>
    public static (int ExitCode, string Output) RunCaptured(IEnumerable<string> args, bool runtimeAsync = false, string? workingDirectory = null,
        Runtimes.RuntimeRoot? runtime = null)
    {
        var info = StartInfo(args, runtimeAsync, redirect: true, runtime);
        if (workingDirectory is not null)
            info.WorkingDirectory = workingDirectory;
        using var process = Process.Start(info)
            ?? throw CliException.Failure("could not start 'dotnet'.", "the process did not start", "check that the .NET SDK is on PATH");
        var stderr = process.StandardError.ReadToEndAsync();
        var stdout = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        return (process.ExitCode, stdout + stderr.Result);
    }

    /// <summary>
    /// How to start <c>dotnet args</c>: under DOTNET_RuntimeAsync=1 only if <paramref name="runtimeAsync"/>,
    /// never inheriting it; on <paramref name="runtime"/> when given.
    /// </summary>
    public static ProcessStartInfo StartInfo(IEnumerable<string> args, bool runtimeAsync, bool redirect, Runtimes.RuntimeRoot? runtime = null)
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
        runtime?.Apply(info);
        return info;
    }
}
