using System.Globalization;

namespace Async2.Cli.Bench;

/// <summary>
/// Seed 003's comparison: its chain of goroutines and channels (bench/Async2.Bench.Go/chain.go),
/// built with Debian's golang and run once, for the report's row beside the C# AddOne chain of the
/// same length (bench/Async2.Bench/Chains.cs, whose case name <see cref="Case"/> repeats). When
/// <c>go</c> is not on PATH it is installed with apt-get, and the progress says so; when that is
/// not possible the row's cell says why.
/// </summary>
internal static class GoChain
{
    public const string Benchmark = "go";
    public const string Variant = "Go";

    /// <summary>The C# chain's links in this mode (Chains.Run), and its case name.</summary>
    public static int Links(bool quick) => quick ? 100_000 : 1_000_000;
    /// <summary>Timed chains after the warm-up one: a chain of 1,000,000 goroutines holds about 4 GB of stacks while it waits, and takes seconds to build.</summary>
    private const int TimedChains = 3;

    public static string Case(bool quick) => $"AddOne x {Links(quick).ToString("N0", CultureInfo.InvariantCulture)}";

    /// <returns>The cell, and `go version` (or why there is none) for the machine table.</returns>
    public static (BenchCell Cell, string Version) Run(string source, string folder, bool quick, Action<string> progress)
    {
        BenchCell Failed(string reason) => new() { Benchmark = Benchmark, Variant = Variant, Case = Case(quick), Unit = "ms", Note = "fails: " + reason };
        try
        {
            if (Go(["version"]) is not (0, var version))
            {
                progress("        go is not installed: installing Debian's golang with apt-get");
                if (ExternalTool.InstallFromDebian("golang", () => Go(["version"]).ExitCode == 0) is { } problem)
                    return (Failed(problem), "not installed: " + problem);
                version = Go(["version"]).Output;
            }
            version = version.Trim();
            Directory.CreateDirectory(folder);
            var binary = Path.Combine(folder, "chain");
            // go build caches its work; an unchanged source links again in well under a second.
            var (built, buildLog) = Go(["build", "-o", binary, source]);
            if (built != 0)
                return (Failed($"go build failed: {buildLog.Trim()}"), version);
            var (exitCode, output) = ExternalTool.Capture(binary, [Links(quick).ToString(CultureInfo.InvariantCulture), TimedChains.ToString(CultureInfo.InvariantCulture), Case(quick)], TimeSpan.FromMinutes(10));
            var cell = output.Split('\n').Select(BenchCell.TryParse).OfType<BenchCell>().FirstOrDefault();
            return (exitCode == 0 && cell is not null ? cell : Failed($"exit code {exitCode}: {output.Trim()}"), version);
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or TimeoutException or IOException or InvalidOperationException)
        {
            return (Failed(e.Message), "?");
        }
    }

    private static (int ExitCode, string Output) Go(string[] args)
    {
        try
        {
            return ExternalTool.Capture("go", args, TimeSpan.FromMinutes(5));
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return (-1, "go is not on PATH");
        }
    }
}
