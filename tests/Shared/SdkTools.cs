using System.Diagnostics;

namespace Async2.TestSupport;

/// <summary>
/// What the test harness and the fuzzer both need from the machine: the net10.0 reference
/// assemblies to compile against, and child processes run to their end with their output captured.
/// Compiled into both projects (a linked file), so neither keeps a copy of the other's.
/// </summary>
internal static class SdkTools
{
    /// <summary>The net10.0 reference assemblies of the newest installed targeting pack <paramref name="pack"/> (the base framework's, or ASP.NET Core's) under <paramref name="dotnetRoot"/>.</summary>
    public static IReadOnlyList<string> ReferenceAssemblies(string dotnetRoot, string pack = "Microsoft.NETCore.App.Ref")
    {
        var packs = Path.Combine(dotnetRoot, "packs", pack);
        var newest = Directory.EnumerateDirectories(packs)
            .Select(d => (Folder: d, Version: Version.TryParse(Path.GetFileName(d).Split('-')[0], out var v) ? v : null))
            .Where(p => p.Version is { Major: 10 })
            .OrderByDescending(p => p.Version)
            .Select(p => Path.Combine(p.Folder, "ref", "net10.0"))
            .FirstOrDefault(Directory.Exists)
            ?? throw new InvalidOperationException($"no net10.0 targeting pack under {packs}");
        return Directory.GetFiles(newest, "*.dll").Order(StringComparer.Ordinal).ToList();
    }

    /// <summary>
    /// Runs <paramref name="program"/> with empty standard input until it exits or
    /// <paramref name="timeout"/> passes (then it is killed, with its children: TimedOut). It never
    /// runs under DOTNET_RuntimeAsync unless <paramref name="environment"/> sets it; a variable
    /// mapped to null is removed.
    /// </summary>
    public static (int ExitCode, string Stdout, string Stderr, bool TimedOut) Run(string program, IEnumerable<string> args, TimeSpan timeout,
        string? workingDirectory = null, IReadOnlyDictionary<string, string?>? environment = null)
    {
        var info = new ProcessStartInfo(program)
        {
            WorkingDirectory = workingDirectory ?? "",
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
        };
        foreach (var arg in args)
            info.ArgumentList.Add(arg);
        info.Environment.Remove("DOTNET_RuntimeAsync");
        foreach (var (name, value) in environment ?? new Dictionary<string, string?>())
        {
            if (value is null)
                info.Environment.Remove(name);
            else
                info.Environment[name] = value;
        }

        using var process = Process.Start(info)!;
        process.StandardInput.Close();
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        bool timedOut = !process.WaitForExit(timeout);
        if (timedOut)
            process.Kill(entireProcessTree: true);
        process.WaitForExit();
        return (timedOut ? -1 : process.ExitCode, stdout.Result, stderr.Result, timedOut);
    }
}
