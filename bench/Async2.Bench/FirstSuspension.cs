using System.Diagnostics;
using System.Globalization;

namespace Async2.Bench;

/// <summary>
/// The first suspension in a fresh process (shared/BENCHMARKS.md, section 8): what a process pays
/// before its first await that suspends has come back. Three async frames, the innermost awaiting
/// Task.Yield(), called once at the very start of Main, before any other async code. Reported: the
/// call's time, which holds the JIT compiling the three methods and everything a suspension and
/// its resumption run for the first time (for Async2, loading Async2.Runtime and its dispatch),
/// and the time from the driver starting the process to the call's end (the driver passes its
/// clock in ASYNC2_BENCH_SPAWNED, src/Async2.Cli/Bench/WorkerProcess.cs). A process measures once;
/// the driver starts many and reports the median and the slowest.
/// </summary>
internal static class FirstSuspension
{
    public const string SpawnedVariable = "ASYNC2_BENCH_SPAWNED";

    private static async Task<int> Outer(int n) => await Middle(n) + 1;

    private static async Task<int> Middle(int n) => await Inner(n) + 1;

    private static async Task<int> Inner(int n)
    {
        await Task.Yield();
        return n + 1;
    }

    public readonly record struct Measurement(double CallMs, double FromSpawnMs);

    /// <summary>Called first thing in Main; <see cref="Report"/> prints it once the build's mode is checked.</summary>
    public static Measurement Measure()
    {
        long t0 = Stopwatch.GetTimestamp();
        int result = Runner.Wait(Outer(0));
        double ms = Runner.Ms(Stopwatch.GetTimestamp() - t0);
        var end = DateTime.UtcNow;
        if (result != 3)
            throw new InvalidOperationException($"the three frames returned {result}");
        double fromSpawn = long.TryParse(Environment.GetEnvironmentVariable(SpawnedVariable), NumberStyles.None, CultureInfo.InvariantCulture, out var ticks)
            ? (end - new DateTime(ticks, DateTimeKind.Utc)).TotalMilliseconds
            : double.NaN;
        return new Measurement(ms, fromSpawn);
    }

    public static void Report(Measurement measurement) =>
        Bench.Report.Cell("first", Model.Name, "3 frames awaiting Task.Yield", "ms", measurement.CallMs, null,
            extra: new Dictionary<string, double> { ["fromSpawnMs"] = measurement.FromSpawnMs });
}
