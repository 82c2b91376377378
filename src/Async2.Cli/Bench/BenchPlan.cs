namespace Async2.Cli.Bench;

/// <summary>
/// The builds of the worker: classic async; runtime async (run under the switch); that build
/// rewritten (Async2's default, context-compatible mode); and the runtime-async build with
/// [assembly: FlowContexts] rewritten (seed 002's flowing async2 semantics).
/// </summary>
internal enum Flavor
{
    Classic,
    Runtime,
    Async2,
    Async2Capture,
}

/// <summary>One worker process: a benchmark, the build it runs, and what its environment needs.</summary>
internal sealed record BenchJob(string Benchmark, Flavor Flavor, string Label, string[] Args, bool WorkstationNonConcurrentGc = false, int TimeoutSeconds = 600)
{
    /// <summary>A stack overflow is an expected outcome of this job and becomes its cell's result.</summary>
    public bool ReportsCrash { get; init; }
    public string? CrashVariant { get; init; }
    public string? CrashCase { get; init; }
}

/// <summary>The list of worker processes one `async2 bench` run starts, in order.</summary>
internal static class BenchPlan
{
    public static readonly string[] AllBenchmarks = ["callcost", "eh", "ehfinally", "gc", "fib", "suspend", "chain", "deep", "apps"];

    /// <summary>
    /// Benchmarks whose suspensions resume through the thread pool. A worker process of these
    /// settles into one of two speeds about 2× apart and keeps it for all its rounds, classic
    /// async as much as Async2 (bench/README.md, "Noise"): a full run starts each variant's
    /// worker this many times, the variants taking turns, and reports the median process.
    /// </summary>
    public static readonly string[] ThreadPoolBound = ["eh", "ehfinally", "chain"];

    public const int ThreadPoolBoundProcesses = 3;

    public static List<BenchJob> Create(bool quick, IReadOnlyCollection<string> only)
    {
        var jobs = new List<BenchJob>();
        string[] mode = quick ? ["--quick"] : [];
        Flavor[] flavors = [Flavor.Classic, Flavor.Runtime, Flavor.Async2, Flavor.Async2Capture];

        foreach (var benchmark in new[] { "callcost", "eh", "ehfinally", "fib", "suspend", "chain" })
        {
            int processes = !quick && ThreadPoolBound.Contains(benchmark) ? ThreadPoolBoundProcesses : 1;
            for (int process = 1; process <= processes; process++)
                foreach (var flavor in flavors)
                    jobs.Add(new BenchJob(benchmark, flavor, Describe(flavor) + (processes > 1 ? $" (process {process} of {processes})" : ""), [benchmark, .. mode]));
            // What complete stack traces cost: the same exceptions with pass-through frames skipped.
            if (benchmark == "eh")
                jobs.Add(new BenchJob(benchmark, Flavor.Async2, "Async2, short traces", [benchmark, "--short-traces", .. mode]));
            // What a metrics collector costs while it listens, where the runtime reports: suspensions and resumptions.
            if (benchmark is "suspend" or "chain")
                jobs.Add(new BenchJob(benchmark, Flavor.Async2, "Async2, metrics listener", [benchmark, "--listen", .. mode]));
        }

        (Flavor Flavor, string Variant)[] variants =
            [(Flavor.Classic, "Task"), (Flavor.Classic, "ValueTask"), (Flavor.Runtime, "Runtime"), (Flavor.Async2, "Async2"), (Flavor.Async2Capture, "Async2Capture")];

        // GC settings matter here, so every variant gets its own process: workstation, non-concurrent.
        foreach (var (flavor, variant) in variants)
            jobs.Add(new BenchJob("gc", flavor, variant, ["gc", "--variant", variant, .. mode], WorkstationNonConcurrentGc: true));

        // CountRecursivelyAsync(1,000,000): a stack overflow ends the process, so one process each.
        foreach (var (flavor, variant) in variants)
            jobs.Add(new BenchJob("deep", flavor, variant, ["deep", "--variant", variant, "--n", DeepN.ToString()], TimeoutSeconds: 180)
            {
                ReportsCrash = true,
                CrashVariant = variant,
                CrashCase = $"CountRecursivelyAsync({DeepN:N0})",
            });

        // The JSON pipeline of the application scenarios; the web API is not a worker process (BenchCommand runs it).
        foreach (var flavor in flavors)
            jobs.Add(new BenchJob("apps", flavor, (flavor == Flavor.Classic ? "Task" : flavor.ToString()) + ", JSON pipeline", ["pipeline", .. mode]));

        var order = AllBenchmarks.ToList();
        return jobs.Where(j => only.Count == 0 || only.Contains(j.Benchmark))
            .OrderBy(j => order.IndexOf(j.Benchmark))
            .ToList();
    }

    public const int DeepN = 1_000_000;

    private static string Describe(Flavor flavor) => flavor switch
    {
        Flavor.Classic => "Sync/Task/ValueTask",
        _ => flavor.ToString(),
    };
}
