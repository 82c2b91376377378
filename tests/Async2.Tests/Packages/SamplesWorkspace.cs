using System.Xml.Linq;
using Async2.Tests.Corpus;

namespace Async2.Tests.Packages;

/// <summary>
/// Async2 as a user adopts it: the three packages packed into a folder feed, and fresh copies of
/// samples/ restoring from it through samples/Directory.Build.props, with a NuGet cache of their own (so
/// nothing comes from an earlier run or from this repository's build), one copy built with Async2
/// and one built classic (<c>-p:Async2Enabled=false</c>) to compare transcripts with.
/// Layout: Root/artifacts/packages (the feed), Root/samples, Root/samples-classic, Root/nuget.
/// </summary>
public sealed class SamplesWorkspace : IDisposable
{
    public string Root { get; } = Path.Combine(Path.GetTempPath(), $"async2-samples-{Guid.NewGuid():N}");

    public string Feed => Path.Combine(Root, "artifacts", "packages");

    public string Samples => Path.Combine(Root, "samples");

    public string ClassicSamples => Path.Combine(Root, "samples-classic");

    /// <summary>The version in Directory.Build.props, which a release pack gets.</summary>
    public string ReleaseVersion { get; }

    /// <summary>
    /// The version the packs got, a dev version (src/Directory.Build.props), as Async2.Build's pack
    /// wrote it beside the packages, where samples/Directory.Build.props reads it.
    /// </summary>
    public string Version { get; }

    public SamplesWorkspace()
    {
        ReleaseVersion = XDocument.Load(Path.Combine(TestEnvironment.RepositoryRoot, "Directory.Build.props"))
            .Descendants("Version").Single().Value;
        foreach (var project in new[] { "src/Async2.Runtime", "src/Async2.Build", "src/Async2.Cli" })
            Dotnet(TestEnvironment.RepositoryRoot, "pack", project, "-c", TestEnvironment.Configuration, "--no-build", "-o", Feed).AssertSucceeded();
        Version = File.ReadAllText(Path.Combine(Feed, "async2-version.txt")).Trim();
        CopyFolder(Path.Combine(TestEnvironment.RepositoryRoot, "samples"), Samples);
        CopyFolder(Path.Combine(TestEnvironment.RepositoryRoot, "samples"), ClassicSamples);
    }

    /// <summary>Runs <c>dotnet</c> in <paramref name="folder"/> with the workspace's own NuGet cache and no MSBuild processes left behind.</summary>
    public CommandResult Dotnet(string folder, params string[] args) => Run(TestEnvironment.DotnetHost, folder, args);

    public CommandResult Run(string program, string folder, params string[] args)
    {
        var (exitCode, stdout, stderr) = ProgramRunner.Run(program, args, timeout: TimeSpan.FromMinutes(10), workingDirectory: folder, environment: Environment());
        return new CommandResult($"{Path.GetFileName(program)} {string.Join(" ", args)}", exitCode, stdout, stderr);
    }

    /// <summary>Starts <c>dotnet</c> as <see cref="Dotnet"/> runs it, for a command that runs until stopped (dotnet watch).</summary>
    public RunningCommand StartDotnet(string folder, params string[] args) => new(TestEnvironment.DotnetHost, folder, args, Environment());

    private Dictionary<string, string?> Environment() => new()
    {
        ["NUGET_PACKAGES"] = Path.Combine(Root, "nuget"),
        ["MSBUILDDISABLENODEREUSE"] = "1",
        ["UseSharedCompilation"] = "false",
        ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
        // Set when the tests run under dotnet test; a child dotnet must find its own MSBuild.
        ["MSBuildExtensionsPath"] = null,
        ["MSBuildSDKsPath"] = null,
        ["MSBUILD_EXE_PATH"] = null,
    };

    public void Dispose()
    {
        try
        {
            Directory.Delete(Root, recursive: true);
        }
        catch (IOException)
        {
            // A process that outlived its test may still hold a file; the temp folder is cleaned later.
        }
    }

    private static void CopyFolder(string from, string to)
    {
        Directory.CreateDirectory(to);
        foreach (var file in Directory.EnumerateFiles(from))
            File.Copy(file, Path.Combine(to, Path.GetFileName(file)));
        foreach (var directory in Directory.EnumerateDirectories(from))
        {
            var name = Path.GetFileName(directory);
            if (name is not ("bin" or "obj"))
                CopyFolder(directory, Path.Combine(to, name));
        }
    }
}

/// <summary>A process that runs until disposed (its whole tree is killed then), its output collected as it comes.</summary>
public sealed class RunningCommand : IDisposable
{
    private readonly System.Diagnostics.Process process;
    private readonly System.Text.StringBuilder output = new();

    public RunningCommand(string program, string folder, IEnumerable<string> args, IReadOnlyDictionary<string, string?> environment)
    {
        var start = new System.Diagnostics.ProcessStartInfo(program, args)
        {
            WorkingDirectory = folder,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
        };
        foreach (var (name, value) in environment)
        {
            if (value is null)
                start.Environment.Remove(name);
            else
                start.Environment[name] = value;
        }
        process = new System.Diagnostics.Process { StartInfo = start };
        process.OutputDataReceived += (_, line) => Append(line.Data);
        process.ErrorDataReceived += (_, line) => Append(line.Data);
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
    }

    public string Output
    {
        get
        {
            lock (output)
                return output.ToString();
        }
    }

    /// <summary>Waits until the output holds <paramref name="text"/>; fails the test with the output so far if it does not in time.</summary>
    public void WaitFor(string text, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (!Output.Contains(text, StringComparison.Ordinal))
        {
            if (DateTime.UtcNow > deadline || process.HasExited)
                Xunit.Assert.Fail($"'{text}' did not appear{(process.HasExited ? $" (exited with {process.ExitCode})" : "")}; output so far:\n{Output}");
            Thread.Sleep(100);
        }
    }

    public void Dispose()
    {
        if (!process.HasExited)
            process.Kill(entireProcessTree: true);
        process.WaitForExit();
        process.Dispose();
    }

    private void Append(string? line)
    {
        if (line is null)
            return;
        lock (output)
            output.AppendLine(line);
    }
}

public sealed record CommandResult(string Command, int ExitCode, string Stdout, string Stderr)
{
    public string Output => Stdout + Stderr;

    public CommandResult AssertSucceeded()
    {
        Xunit.Assert.True(ExitCode == 0, $"'{Command}' exited with {ExitCode}:\n{Stdout}\n{Stderr}");
        return this;
    }
}
