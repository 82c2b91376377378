namespace Async2.Cli.Bench;

/// <summary>
/// The builds of the worker: classic async; runtime async (run under the switch on .NET 10,
/// natively on .NET 11); that build rewritten (Async2's default, context-compatible mode); and the
/// runtime-async build with [assembly: FlowContexts] rewritten (seed 002's flowing async2 semantics).
/// </summary>
internal enum Flavor
{
    Classic,
    Runtime,
    Async2,
    Async2Capture,
}

/// <summary>One worker process: a benchmark, the build it runs, the runtime it runs on, and what its environment needs.</summary>
/// <param name="OnNet11">Run on .NET 11 (rolled forward, BenchCommand's RuntimeRoot) instead of the stock runtime.</param>
internal sealed record BenchJob(string Benchmark, Flavor Flavor, string Label, string[] Args, bool WorkstationNonConcurrentGc = false, int TimeoutSeconds = 600, bool OnNet11 = false)
{
    /// <summary>A stack overflow is an expected outcome of this job and becomes its cell's result.</summary>
    public bool ReportsCrash { get; init; }
    public string? CrashVariant { get; init; }
    public string? CrashCase { get; init; }
}

/// <summary>The list of worker processes one `async2 bench` run starts, in order.</summary>
internal static class BenchPlan
{
    public static readonly string[] AllBenchmarks = ["callcost", "eh", "ehfinally", "gc", "fib", "suspend", "chain", "deep", "pending", "first", "go", "apps"];

    /// <summary>
    /// Benchmarks whose suspensions resume through the thread pool. A worker process of these
    /// settles into one of two speeds about 2× apart and keeps it for all its rounds, classic
    /// async as much as Async2 (bench/README.md, "Noise"): a full run starts each variant's
    /// worker this many times, the variants taking turns, and reports the median process.
    /// </summary>
    public static readonly string[] ThreadPoolBound = ["eh", "ehfinally", "chain", "pending"];

    /// <summary>A full run's default (<c>--processes</c>); a quick run starts one.</summary>
    public const int ThreadPoolBoundProcesses = 3;

    /// <summary>Processes per variant for <see cref="ThreadPoolBound"/> when <c>--processes</c> is not given.</summary>
    public static int DefaultProcesses(bool quick) => quick ? 1 : ThreadPoolBoundProcesses;

    /// <summary>Fresh processes per variant for the first suspension, each measuring once (at least 9: the median and the slowest are reported).</summary>
    public static int FirstSuspensionProcesses(bool quick) => quick ? 9 : 15;

    /// <summary>The runtimes a run measures on: the stock one, and .NET 11 when it could be laid out.</summary>
    private static bool[] Runtimes(bool net11) => net11 ? [false, true] : [false];

    /// <param name="net11">.NET 11 is laid out: every benchmark that can run there also runs each build on it.</param>
    /// <param name="threadPoolBoundProcesses">Processes per variant for <see cref="ThreadPoolBound"/>; <see cref="DefaultProcesses"/> when not given.</param>
    public static List<BenchJob> Create(bool quick, IReadOnlyCollection<string> only, bool net11, int? threadPoolBoundProcesses = null)
    {
        var jobs = new List<BenchJob>();
        string[] mode = quick ? ["--quick"] : [];
        Flavor[] flavors = [Flavor.Classic, Flavor.Runtime, Flavor.Async2, Flavor.Async2Capture];

        foreach (var benchmark in new[] { "callcost", "eh", "ehfinally", "fib", "suspend", "chain", "pending" })
        {
            int processes = ThreadPoolBound.Contains(benchmark) ? threadPoolBoundProcesses ?? DefaultProcesses(quick) : 1;
            for (int process = 1; process <= processes; process++)
                foreach (var on11 in Runtimes(net11))
                    foreach (var flavor in flavors)
                        jobs.Add(new BenchJob(benchmark, flavor, Describe(flavor, on11) + (processes > 1 ? $" (process {process} of {processes})" : ""), [benchmark, .. mode], OnNet11: on11));
            // What complete stack traces cost: the same exceptions with pass-through frames skipped.
            if (benchmark == "eh")
                jobs.Add(new BenchJob(benchmark, Flavor.Async2, "Async2, short traces", [benchmark, "--short-traces", .. mode]));
            // What a metrics collector costs while it listens, where the runtime reports: suspensions and resumptions.
            if (benchmark is "suspend" or "chain")
                jobs.Add(new BenchJob(benchmark, Flavor.Async2, "Async2, metrics listener", [benchmark, "--listen", .. mode]));
        }

        // ValueTask is measured on the stock runtime only (Model.MeasuresValueTask in the worker).
        (Flavor Flavor, string Variant)[] variants =
            [(Flavor.Classic, "Task"), (Flavor.Classic, "ValueTask"), (Flavor.Runtime, "Runtime"), (Flavor.Async2, "Async2"), (Flavor.Async2Capture, "Async2Capture")];
        var perRuntime = Runtimes(net11).SelectMany(on11 => variants.Where(v => !on11 || v.Variant != "ValueTask").Select(v => (v.Flavor, v.Variant, On11: on11))).ToList();

        // GC settings matter here, so every variant gets its own process: workstation, non-concurrent.
        foreach (var (flavor, variant, on11) in perRuntime)
            jobs.Add(new BenchJob("gc", flavor, Name(variant, on11), ["gc", "--variant", variant, .. mode], WorkstationNonConcurrentGc: true, OnNet11: on11));

        // CountRecursivelyAsync(1,000,000): a stack overflow ends the process, so one process each.
        foreach (var (flavor, variant, on11) in perRuntime)
            jobs.Add(new BenchJob("deep", flavor, Name(variant, on11), ["deep", "--variant", variant, "--n", DeepN.ToString()], TimeoutSeconds: 180, OnNet11: on11)
            {
                ReportsCrash = true,
                CrashVariant = Name(variant, on11),
                CrashCase = $"CountRecursivelyAsync({DeepN:N0})",
            });

        // The first suspension: many fresh processes per variant, the variants taking turns.
        int firstProcesses = FirstSuspensionProcesses(quick);
        for (int process = 1; process <= firstProcesses; process++)
            foreach (var on11 in Runtimes(net11))
                foreach (var flavor in flavors)
                    jobs.Add(new BenchJob("first", flavor, $"{Describe(flavor, on11)} (process {process} of {firstProcesses})", ["first"], TimeoutSeconds: 60, OnNet11: on11));

        // The JSON pipeline of the application scenarios; the web API is not a worker process (BenchCommand runs it).
        foreach (var on11 in Runtimes(net11))
            foreach (var flavor in flavors)
                jobs.Add(new BenchJob("apps", flavor, Name(flavor == Flavor.Classic ? "Task" : flavor.ToString(), on11) + ", JSON pipeline", ["pipeline", .. mode], OnNet11: on11));

        var order = AllBenchmarks.ToList();
        return jobs.Where(j => only.Count == 0 || only.Contains(j.Benchmark))
            .OrderBy(j => order.IndexOf(j.Benchmark))
            .ToList();
    }

    public const int DeepN = 1_000_000;

    /// <summary>The variants measured on .NET 11, as the worker names them: every table that shows them lists them so.</summary>
    public static readonly string[] Net11Variants = [Name("Task", true), Name("Runtime", true), Name("Async2", true), Name("Async2Capture", true)];

    /// <summary>
    /// A variant's name when measured on .NET 11: "Task11", "Runtime11", and for Async2's two builds
    /// "Async2_11", "Async2Capture_11". The worker names its cells by the same rule from the runtime
    /// it finds itself on (bench/Async2.Bench/Model.cs, <c>Variant</c>); keep the two in sync.
    /// </summary>
    public static string Name(string variant, bool onNet11) => !onNet11 ? variant
        : variant.StartsWith("Async2", StringComparison.Ordinal) ? $"{variant}_11" : $"{variant}11";

    private static string Describe(Flavor flavor, bool onNet11) => flavor switch
    {
        Flavor.Classic => onNet11 ? "Sync11/Task11" : "Sync/Task/ValueTask",
        _ => Name(flavor.ToString(), onNet11),
    };
}
