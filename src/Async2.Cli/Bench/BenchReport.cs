using System.Globalization;
using System.Text;

namespace Async2.Cli.Bench;

/// <summary>
/// Turns a run's cells into README.md: the machine, the targets, and one table per benchmark in
/// the seed's layout with ratios to Task and bytes allocated per operation.
/// </summary>
internal static class BenchReport
{
    /// <summary>The two rewritten builds: seed 002's flowing async2 semantics, and Async2's default mode.</summary>
    private static readonly string[] Async2Variants = ["Async2", "Async2Capture"];

    public static string Markdown(BenchRun run, IReadOnlyList<string> charts)
    {
        var cells = new Lookup(run.Cells, run.Net11Skipped);
        var md = new StringBuilder();
        md.AppendLine($"# async2 bench — {run.Mode} run");
        md.AppendLine();
        bool quick = run.Mode == "quick";
        var threadPoolBound = string.Join(", ", BenchPlan.ThreadPoolBound);
        md.AppendLine("Produced by `async2 bench" + (quick ? " --quick" : "")
            + (run.ThreadPoolBoundProcesses != BenchPlan.DefaultProcesses(quick) ? $" --processes {run.ThreadPoolBoundProcesses}" : "") + "`. Variants: **Sync** (no async), **Task** and **ValueTask** (classic compiler state machines), "
            + "**Runtime** (the runtime-async build under `DOTNET_RuntimeAsync=1`), **Async2** (seed 002's async2 semantics: the runtime-async build with `[assembly: FlowContexts]`, "
            + "rewritten by `async2 rewrite`, stock runtime; a callee's AsyncLocal and SynchronizationContext changes flow to its caller) and **Async2Capture** "
            + "(Async2's default, context-compatible mode, what users get without the attribute: the plain runtime-async build rewritten; those changes are undone when a callee returns, as in classic async; "
            + "seed 002's Async2Capture); both run Async2.Runtime as its package gives this machine (the machine table says which copy). "
            + "**Task11**, **Runtime11**, **Async2_11** and **Async2Capture_11** are the same builds on .NET 11.0.0 (its runtime packs restored from NuGet, the net10.0 builds rolled forward): "
            + "classic async, the runtime's own runtime async natively (no switch), and Async2's output"
            + (run.Net11Skipped is null ? ". " : $"; this run skipped them: {run.Net11Skipped}. ")
            + "Every value is the median of several rounds after warm-up (rounds repeat until two successive ones agree within 3% with no method compiled in the second, or a cap). "
            + (run.ThreadPoolBoundProcesses > 1
                ? $"The benchmarks that resume through the thread pool ({threadPoolBound}) run {run.ThreadPoolBoundProcesses} worker processes per variant, the variants taking turns, "
                    + "and each cell is the median process: a process settles at one of two speeds about 2× apart for all its rounds, classic async too (see \"Spread across processes\" at the end). "
                : !quick
                    ? $"The benchmarks that resume through the thread pool ({threadPoolBound}) ran one worker process per variant in this run (`--processes 1`), "
                        + "and a process settles at one of two speeds about 2× apart for all its rounds, classic async too: compare their cells with care. "
                    : "")
            + "Absolute numbers move from run to run on a shared machine; compare ratios within one run. Raw cells: `results.json`.");
        md.AppendLine();
        md.AppendLine("## Machine");
        md.AppendLine();
        md.AppendLine("| | |");
        md.AppendLine("| --- | --- |");
        foreach (var (key, value) in run.Machine)
            md.AppendLine($"| {key} | {value} |");
        md.AppendLine($"| Run time | {run.DurationSeconds / 60:F1} min |");
        md.AppendLine();

        Targets(md, cells);
        CallCost(md, cells);
        AcrossAssemblies(md, cells);
        Exceptions(md, cells);
        Finally(md, cells);
        Gc(md, cells);
        Fib(md, cells);
        Suspend(md, cells);
        Chains(md, cells);
        MetricsListenerCost(md, cells);
        Applications(md, cells, quick, run.Machine.GetValueOrDefault("wrk"));
        ServerCosts(md, cells, run.Machine.GetValueOrDefault("go"));

        if (charts.Count > 0)
        {
            md.AppendLine("## Charts");
            md.AppendLine();
            foreach (var chart in charts)
                md.AppendLine($"![{Path.GetFileNameWithoutExtension(chart)}]({chart})");
            md.AppendLine();
        }
        Spread(md, run.Cells, run.ThreadPoolBoundProcesses);
        if (run.Problems.Count > 0)
        {
            md.AppendLine("## Problems during the run");
            md.AppendLine();
            foreach (var problem in run.Problems)
            {
                md.AppendLine("```");
                md.AppendLine(problem.Trim());
                md.AppendLine("```");
            }
        }
        return md.ToString();
    }

    /// <summary>The cells whose worker processes disagreed most, each process's value in run order.</summary>
    private static void Spread(StringBuilder md, IEnumerable<BenchCell> all, int processes)
    {
        const double Listed = 1.3;
        // The first suspension's processes are its measurement; its own table shows their median and slowest.
        var repeated = all.Where(c => c.Processes is { Count: > 1 } && c.Benchmark != "first").ToList();
        if (repeated.Count == 0)
            return;
        static double Ratio(List<double> values) => values.Max() / values.Min();
        var spread = repeated
            .Select(c => (Cell: c, Values: c.Processes!.Where(v => !double.IsNaN(v) && v > 0).ToList()))
            .Where(x => x.Values.Count > 1 && Ratio(x.Values) > Listed)
            .OrderByDescending(x => Ratio(x.Values))
            .ToList();
        md.AppendLine("## Spread across processes");
        md.AppendLine();
        md.AppendLine($"{repeated.Count} cells were measured by {processes} processes each; the tables show the median process. "
            + (spread.Count == 0
                ? $"No cell's processes differed by more than {Listed}×."
                : $"These {spread.Count} differed by more than {Listed}× between the fastest and the slowest process:"));
        if (spread.Count == 0)
        {
            md.AppendLine();
            return;
        }
        md.AppendLine();
        md.AppendLine("| Benchmark | Case | Variant | each process | max ÷ min |");
        md.AppendLine("| --- | --- | --- | --- | --- |");
        foreach (var (cell, values) in spread)
            md.AppendLine($"| {cell.Benchmark} | {cell.Case} | {cell.Variant} | {string.Join(" · ", cell.Processes!.Select(v => double.IsNaN(v) ? "failed" : Format.Number(v)))} {cell.Unit} | {Ratio(values):F2}× |");
        md.AppendLine();
    }

    // ---------------------------------------------------------------- targets

    private static void Targets(StringBuilder md, Lookup c)
    {
        md.AppendLine("## Targets (reported, not asserted)");
        md.AppendLine();
        md.AppendLine("The targets are set for Async2 (seed 002's semantics) on the stock .NET 10 runtime, the one it is made for; the Async2Capture columns state the same ratios for the default mode users get. "
            + "Classic async is compared at its better of .NET 10 and .NET 11 (\"best classic\": Task or Task11, whichever did better in that cell), "
            + "and the runtime's own runtime async at .NET 11, where it ships natively (Runtime11). A ratio's spread, where given, is the variant's slowest round against classic's fastest "
            + "and its fastest against classic's slowest. Async2's output on .NET 11 (Async2_11, Async2Capture_11) is in the tables below.");
        md.AppendLine();
        md.AppendLine("| target | Async2 | met | Async2Capture | met |");
        md.AppendLine("| --- | --- | --- | --- | --- |");
        void Row(string target, bool higherIsBetter, double goal, Func<string, double> measure, Func<string, double, string> format)
        {
            var columns = Async2Variants.Select(variant =>
            {
                var measured = measure(variant);
                string met = double.IsNaN(measured) ? "not measured" : (higherIsBetter ? measured >= goal : measured <= goal) ? "yes" : "**no**";
                return $"{(double.IsNaN(measured) ? "–" : format(variant, measured))} | {met}";
            });
            md.AppendLine($"| {target} | {string.Join(" | ", columns)} |");
        }
        string Ratio(string variant, double ratio) => Format.Ratio(ratio);
        var task11 = BenchPlan.Name("Task", onNet11: true);
        var runtime11 = BenchPlan.Name("Runtime", onNet11: true);

        Row("call cost Async2→Async2 ≥ 4× Task→Task", true, 4,
            v => c.Value("callcost", v, $"{v}->{v}") / c.Value("callcost", "Task", "Task->Task"), Ratio);
        var fibCase = c.FirstCase("fib");
        Row($"{fibCase ?? "FibAsync"} Async2 ≤ 1.2× Sync", false, 1.2,
            v => fibCase is null ? double.NaN : c.Value("fib", v, fibCase) / c.SyncFor(v, fibCase), Ratio);
        var depth = c.MaxDepth();
        Row($"Throw NoSuspend d{depth} Async2 ≥ 8× Task", true, 8,
            v => c.Value("eh", v, $"Throw NoSuspend d{depth}") / c.Value("eh", "Task", $"Throw NoSuspend d{depth}"), Ratio);
        // Async2 ÷ Runtime11 at its weakest depth, and which depth that is.
        foreach (var scenario in new[] { "Return Suspend", "Throw Suspend" })
        {
            (double Ratio, int Depth) Weakest(string v) => c.Depths("eh")
                .Select(d => (Ratio: c.Value("eh", v, $"{scenario} d{d}") / c.Value("eh", runtime11, $"{scenario} d{d}"), Depth: d))
                .Where(x => !double.IsNaN(x.Ratio)).DefaultIfEmpty((Ratio: double.NaN, Depth: 0)).MinBy(x => x.Ratio);
            Row($"{scenario} Async2 ≥ {runtime11} at every depth (weakest depth)", true, 1,
                v => Weakest(v).Ratio, (v, r) => $"{Format.Ratio(r)} (d{Weakest(v).Depth})");
        }
        Row("GC heap Async2 ≤ 0.5× Task", false, 0.5,
            v => c.Extra("gc", v, "Gen0 pause", "heapMb") / c.Extra("gc", "Task", "Gen0 pause", "heapMb"), Ratio);
        var suspendCase = c.FirstCase("suspend");
        if (suspendCase is not null)
        {
            Row($"suspension-heavy Async2 time ≤ best classic (moonshot 0.7×)", false, 1, v => c.Value("suspend", v, suspendCase) / c.BestClassic("suspend", suspendCase).Value,
                (v, r) => $"{Format.Ratio(r)} of {c.BestClassic("suspend", suspendCase).Variant}");
            Row($"suspension-heavy Async2 time ≤ {runtime11}", false, 1, v => c.Value("suspend", v, suspendCase) / c.Value("suspend", runtime11, suspendCase), Ratio);
        }
        foreach (var chain in c.Cases("chain").Where(name => name.StartsWith("AddOne", StringComparison.Ordinal)))
            Row($"chain {chain} Async2 time ≤ best classic", false, 1, v => c.Value("chain", v, chain) / c.BestClassic("chain", chain).Value,
                (v, r) => $"{Format.Ratio(r)} of {c.BestClassic("chain", chain).Variant}");
        if (c.FirstCase("pending") is { } pending)
        {
            Row("many pending calls: time ≤ best classic", false, 1, v => c.Value("pending", v, pending) / c.BestClassic("pending", pending).Value,
                (v, r) => $"{Format.Ratio(r)} of {c.BestClassic("pending", pending).Variant}");
            Row("many pending calls: bytes/call ≤ Task", false, 1,
                v => (c.Get("pending", v, pending)?.BytesPerOp ?? double.NaN) / (c.Get("pending", "Task", pending)?.BytesPerOp ?? double.NaN), Ratio);
            Row("many pending calls: peak heap ≤ Task", false, 1,
                v => c.Extra("pending", v, pending, "peakHeapMb") / c.Extra("pending", "Task", pending, "peakHeapMb"), Ratio);
        }
        if (c.FirstCase("first") is { } first)
            Row("first suspension in a fresh process ≤ 1.5× Task (median process)", false, 1.5, v => c.Value("first", v, first) / c.Value("first", "Task", first), Ratio);
        foreach (var endpoint in new[] { "yield", "channel", "delay" })
            ThroughputRow($"web API /{endpoint} Async2 ≥ Task (req/s)", WebApiBench.Case(endpoint));
        if (c.Cases(WebApiBench.Benchmark).FirstOrDefault(name => name.StartsWith("JSON pipeline", StringComparison.Ordinal)) is { } pipeline)
            ThroughputRow("JSON pipeline Async2 ≥ Task (records/s)", pipeline);
        Row("0 bytes per synchronous Async2→Async2 call", false, 0.5,
            v => c.Get("callcost", v, $"{v}->{v}")?.BytesPerOp ?? double.NaN, (v, bytes) => Format.Bytes(bytes) + " B/call");

        void ThroughputRow(string target, string @case) =>
            Row(target, true, 1, v => c.Value(WebApiBench.Benchmark, v, @case) / c.Value(WebApiBench.Benchmark, "Task", @case),
                (v, r) => $"{Format.Ratio(r)} {c.RoundSpread(WebApiBench.Benchmark, v, "Task", @case)}");

        foreach (var runtime in new[] { "Runtime", runtime11 })
        {
            var versus = Async2Variants.Select(v => c.Versus(v, runtime)).ToList();
            md.AppendLine($"| every row Async2 ≥ {runtime} | " + string.Join(" | ", versus.Select(r =>
                $"{r.Better} of {r.Total} comparable cells | {(r.Total == 0 ? "not measured" : r.Better == r.Total ? "yes" : "**no**")}")) + " |");
        }
        md.AppendLine();
        foreach (var runtime in new[] { "Runtime", runtime11 })
            foreach (var variant in Async2Variants)
                if (c.Versus(variant, runtime).Worse is { Count: > 0 } worse)
                {
                    md.AppendLine($"Cells where {variant} is behind {runtime}: " + string.Join("; ", worse) + ".");
                    md.AppendLine();
                }
    }

    // ---------------------------------------------------------------- 1. call cost

    private static void CallCost(StringBuilder md, Lookup c)
    {
        if (!c.Has("callcost"))
            return;
        md.AppendLine("## 1. Minimum call cost (calls per second)");
        md.AppendLine();
        md.AppendLine("A `Task<long>` caller calls a nearly empty async callee in a loop (seed 002); nothing suspends. "
            + "Rows are callers, columns callees. \"Task\" callers and callees are classic state machines in every build "
            + "(`[RuntimeAsyncMethodGeneration(false)]`); the others follow the build. The Async2Capture columns stand where seed 002 has \"Async2 method with context save\", "
            + "but that save was unconditional: this callee makes no call that could change a context, so the compatible mode puts no context scope around it "
            + "(`Rewrite/ContextScopeEmitter.cs`) and it should cost what Async2 does. "
            + "Each cell: calls/s, ratio to Task→Task on .NET 10, bytes allocated per call. The second matrix is the same builds on .NET 11 (its ratios too are to Task→Task on .NET 10).");
        md.AppendLine();
        var baseline = c.Value("callcost", "Task", "Task->Task");
        foreach (var on11 in new[] { false, true })
        {
            string N(string variant) => BenchPlan.Name(variant, on11);
            string[] models = ["Task", "Runtime", .. Async2Variants];
            string[] callees = [.. models.SelectMany(m => m == "Task" ? [N(m), N(m) + " (non-inlineable)", N("ValueTask")] : new[] { N(m), N(m) + " (non-inlineable)" })];
            if (on11)
            {
                if (!c.Has("callcost", N("Task")))
                {
                    if (c.Text("callcost", N("Task"), $"{N("Task")}->{N("Task")}") is { Length: > 0 } skipped)
                        md.AppendLine($"On .NET 11: {skipped} (see the machine table).").AppendLine();
                    continue;
                }
                md.AppendLine("On .NET 11:");
                md.AppendLine();
            }
            md.AppendLine("| Caller \\ callee | " + string.Join(" | ", callees) + " |");
            md.AppendLine("| --- |" + string.Concat(callees.Select(_ => " --- |")));
            foreach (var caller in models.Select(N))
            {
                var row = new List<string>();
                foreach (var callee in callees)
                {
                    var cell = c.Any("callcost", $"{caller}->{callee}");
                    row.Add(cell is null ? "" : cell.Failed ? cell.Note! : $"{Format.Number(cell.Value)} ({Format.Ratio(cell.Value / baseline)}, {Format.Bytes(cell.BytesPerOp)} B)");
                }
                md.AppendLine($"| {caller} | " + string.Join(" | ", row) + " |");
            }
            md.AppendLine();
        }
        md.AppendLine("Seed 002 (AMD 5950X, JIT state machine prototype): Task→Task 117,232,360; Async2→Async2 500,753,190 (4.3×); Async2→Task 139,952,617; Async2→Async2 with context save 220,148,034 (1.9×).");
        md.AppendLine();
    }

    /// <summary>The same calls within the worker and into Async2.Bench.Library, per build.</summary>
    private static void AcrossAssemblies(StringBuilder md, Lookup c)
    {
        const string across = " (another assembly)";
        string[] models = ["Task", "Runtime", .. Async2Variants, .. BenchPlan.Net11Variants];
        if (!models.Any(m => c.Get("callcost", m, $"{m}->{m}{across}") is not null || c.Get("fib", m, FibCase(c, "in another assembly")) is not null))
            return;
        md.AppendLine("### 1b. Calls across assemblies");
        md.AppendLine();
        md.AppendLine("The same callee in the worker and in a second assembly (`bench/Async2.Bench.Library`), built the same way; for Async2 both are rewritten, "
            + "the library first, so the worker's calls go straight to its variants (docs/design.md, \"Calls across assemblies\"). "
            + "Call cost in calls/s; FibAsync with its sum through an async `Add` in ms.");
        md.AppendLine();
        md.AppendLine("| Build | call, this assembly | call, another | ÷ | non-inlineable, this | non-inlineable, another | ÷ | Fib + Add here (ms) | Fib + Add across (ms) | ÷ (time) |");
        md.AppendLine("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        foreach (var model in models)
        {
            string Call(string callee) => $"{model}->{callee}";
            double Ratio(string bench, string here, string there) => c.Value(bench, model, there) / c.Value(bench, model, here);
            string hereFib = FibCase(c, "in this assembly"), thereFib = FibCase(c, "in another assembly");
            md.AppendLine($"| {model} | {c.Text("callcost", model, Call(model))} | {c.Text("callcost", model, Call(model + across))} | {Format.Ratio(Ratio("callcost", Call(model), Call(model + across)))} "
                + $"| {c.Text("callcost", model, Call(model + " (non-inlineable)"))} | {c.Text("callcost", model, Call(model + " (non-inlineable)" + across))} "
                + $"| {Format.Ratio(Ratio("callcost", Call(model + " (non-inlineable)"), Call(model + " (non-inlineable)" + across)))} "
                + $"| {c.Text("fib", model, hereFib)} | {c.Text("fib", model, thereFib)} | {Format.Ratio(Ratio("fib", hereFib, thereFib))} |");
        }
        md.AppendLine();
    }

    /// <summary>The name of the Fib case whose Add is <paramref name="where"/> (its n depends on the run's mode).</summary>
    private static string FibCase(Lookup c, string where) => c.Cases("fib").FirstOrDefault(name => name.EndsWith("Add " + where, StringComparison.Ordinal)) ?? "";

    // ---------------------------------------------------------------- 2. exceptions

    private static readonly string[] Scenarios = ["Return NoSuspend", "Throw NoSuspend", "Return Suspend", "Throw Suspend"];

    /// <summary>Every async variant, Task first (the baseline of the ratios), then those measured on .NET 11.</summary>
    private static readonly string[] AsyncVariants = ["Task", "ValueTask", "Runtime", .. Async2Variants, .. BenchPlan.Net11Variants];

    /// <summary>The async variants of a benchmark the classic build measures with Task only.</summary>
    private static readonly string[] TaskOnlyVariants = AsyncVariants.Where(v => v != "ValueTask").ToArray();

    /// <summary>The rewritten builds on both runtimes: the columns of ratios to Task.</summary>
    private static readonly string[] Async2Everywhere = [.. Async2Variants, .. Async2Variants.Select(v => BenchPlan.Name(v, onNet11: true))];

    private static void Exceptions(StringBuilder md, Lookup c)
    {
        if (!c.Has("eh"))
            return;
        md.AppendLine("## 2. Exceptions at depth (iterations per 250 ms)");
        md.AppendLine();
        md.AppendLine("Recurse to depth d, at the bottom optionally `await Task.Yield()` (Suspend), then return or `throw new Exception()`; the top-level loop catches (seed 002). "
            + "Bytes are allocated per iteration (all threads).");
        md.AppendLine();
        var depths = c.Depths("eh");
        foreach (var scenario in Scenarios)
        {
            md.AppendLine($"### {scenario}");
            md.AppendLine();
            md.AppendLine("| Stack depth | " + string.Join(" | ", AsyncVariants) + " | " + string.Join(" | ", AsyncVariants.Skip(1).Select(v => v + " ÷ Task"))
                + " | bytes/iter " + string.Join(" · ", AsyncVariants) + " |");
            md.AppendLine("| --- |" + string.Concat(Enumerable.Repeat(" --- |", 2 * AsyncVariants.Length)));
            foreach (var depth in depths)
            {
                var name = $"{scenario} d{depth}";
                var task = c.Value("eh", "Task", name);
                md.AppendLine($"| {depth} | " + string.Join(" | ", AsyncVariants.Select(v => c.Text("eh", v, name)))
                    + " | " + string.Join(" | ", AsyncVariants.Skip(1).Select(v => Format.Ratio(c.Value("eh", v, name) / task)))
                    + " | " + string.Join(" · ", AsyncVariants.Select(v => Format.Bytes(c.Get("eh", v, name)?.BytesPerOp))) + " |");
            }
            md.AppendLine();
        }
        ShortTraces(md, c, depths);
        md.AppendLine("Seed 002 at depth 64: Task Throw NoSuspend 484, Async2 3,936 (8.1×); Task Throw Suspend 458, Async2 17,565 (38×); Task Return Suspend 37,086, Async2 98,769 (2.7×). "
            + "Its Async2Capture at depth 64: Throw NoSuspend 3,654 (7.5×), Throw Suspend 593 (1.3×), Return Suspend 83,977 (2.3×).");
        md.AppendLine();
    }

    /// <summary>Throw Suspend with Async2.CompleteStackTraces=false next to the default.</summary>
    private static void ShortTraces(StringBuilder md, Lookup c, IEnumerable<int> depths)
    {
        const string shortTraces = "Async2ShortTraces";
        bool Ran(string variant) => c.Cases("eh").Any(name => c.Get("eh", variant, name) is not null);
        if (!Ran(shortTraces))
            return;
        md.AppendLine("### Throw Suspend, complete or short stack traces");
        md.AppendLine();
        md.AppendLine("By default the frames an exception passes through after a suspension (no handler at their await) are rethrown through "
            + "together so they stay in its stack trace, as in classic async (`src/Async2.Runtime/PassThroughFrames.cs`). "
            + "With the AppContext switch `Async2.CompleteStackTraces=false` they are skipped and left out of the trace, as Runtime (.NET 10's runtime async) does. "
            + "Runtime11 keeps them, added to the trace by its runtime without unwinding them, which a library cannot do (bench/README.md, \"How .NET 11 keeps complete traces for less\").");
        md.AppendLine();
        string[] compared = ["Runtime", BenchPlan.Name("Runtime", onNet11: true), "Async2", shortTraces];
        string[] variants = ["Task", .. compared.Where(Ran)];
        md.AppendLine("| Stack depth | " + string.Join(" | ", variants) + " | " + string.Join(" | ", variants.Skip(1).Select(v => v + " ÷ Task")) + " |");
        md.AppendLine("| --- |" + string.Concat(Enumerable.Repeat(" --- |", 2 * variants.Length - 1)));
        foreach (var depth in depths)
        {
            var name = $"Throw Suspend d{depth}";
            var task = c.Value("eh", "Task", name);
            md.AppendLine($"| {depth} | " + string.Join(" | ", variants.Select(v => c.Text("eh", v, name)))
                + " | " + string.Join(" | ", variants.Skip(1).Select(v => Format.Ratio(c.Value("eh", v, name) / task))) + " |");
        }
        md.AppendLine();
    }

    private static void Finally(StringBuilder md, Lookup c)
    {
        if (!c.Has("ehfinally"))
            return;
        md.AppendLine("### Throw with try/finally frames on the stack (iterations per 250 ms, depth 32)");
        md.AppendLine();
        md.AppendLine("The outermost n of the 32 frames run a try/finally around their await.");
        md.AppendLine();
        string[] scenarios = ["Throw NoSuspend", "Throw Suspend"];
        string[] variants = TaskOnlyVariants;
        md.AppendLine("| Finally blocks on stack | " + string.Join(" | ", scenarios.Select(scenario =>
            string.Join(" | ", variants.Select(v => $"{v} {scenario}")) + " | " + string.Join(" | ", Async2Everywhere.Select(v => v + " ÷ Task")))) + " |");
        md.AppendLine("| --- |" + string.Concat(Enumerable.Repeat(" --- |", scenarios.Length * (variants.Length + Async2Everywhere.Length))));
        foreach (var f in c.Cases("ehfinally").Select(k => int.Parse(k[(k.LastIndexOf('f') + 1)..], CultureInfo.InvariantCulture)).Distinct().Order())
        {
            md.AppendLine($"| {f} | " + string.Join(" | ", scenarios.Select(scenario =>
            {
                var name = $"{scenario} f{f}";
                var task = c.Value("ehfinally", "Task", name);
                return string.Join(" | ", variants.Select(v => c.Text("ehfinally", v, name))) + " | "
                    + string.Join(" | ", Async2Everywhere.Select(v => Format.Ratio(c.Value("ehfinally", v, name) / task)));
            })) + " |");
        }
        md.AppendLine();
    }

    // ---------------------------------------------------------------- 3. GC

    private static void Gc(StringBuilder md, Lookup c)
    {
        if (!c.Has("gc"))
            return;
        md.AppendLine("## 3. GC impact: 10,000 suspended chains × 100 frames");
        md.AppendLine();
        md.AppendLine("Each frame keeps an object and an integer live across its await; all chains wait on one gate. After two full GCs, 20 forced Gen0 GCs are timed. "
            + "One process per variant, workstation non-concurrent GC. Heap = `GC.GetGCMemoryInfo().HeapSizeBytes`; bytes/frame = allocated while building the chains ÷ 1,000,000 (includes the 24-byte payload object).");
        md.AppendLine();
        md.AppendLine("| Variant | Gen0 pause (µs, timed) | Gen0 pause (µs, GC-reported) | Managed heap (MB) | Heap ÷ Task | Peak working set (MB) | bytes/frame |");
        md.AppendLine("| --- | --- | --- | --- | --- | --- | --- |");
        var taskHeap = c.Extra("gc", "Task", "Gen0 pause", "heapMb");
        foreach (var variant in AsyncVariants)
        {
            var cell = c.Get("gc", variant, "Gen0 pause");
            if (cell is null)
            {
                c.SkippedRow(md, "gc", variant, "Gen0 pause", columns: 7);
                continue;
            }
            if (cell.Failed)
            {
                md.AppendLine($"| {variant} | {cell.Note} | | | | | |");
                continue;
            }
            var heap = c.Extra("gc", variant, "Gen0 pause", "heapMb");
            md.AppendLine($"| {variant} | {Format.Number(cell.Value)} | {Format.Number(c.Extra("gc", variant, "Gen0 pause", "gcPauseDurationUs"))} | {Format.Number(heap)} | {Format.Ratio(heap / taskHeap)} "
                + $"| {Format.Number(c.Extra("gc", variant, "Gen0 pause", "peakWorkingSetMb"))} | {Format.Bytes(cell.BytesPerOp)} |");
        }
        md.AppendLine();
        md.AppendLine("Seed 002 (5950X): async1 heap 130 MB, Gen0 pause 120 µs, peak working set 148 MB; JIT state machine async2 pause 100 µs, heap 157 MB (105 MB with tiering).");
        md.AppendLine();
    }

    // ---------------------------------------------------------------- 4.–6.

    private static void Fib(StringBuilder md, Lookup c)
    {
        if (!c.Has("fib"))
            return;
        var name = c.FirstCase("fib")!;
        md.AppendLine($"## 4. FibAsync vs Fib: {name} (ms)");
        md.AppendLine();
        md.AppendLine("Every await finds a completed task. \"÷ Sync\" divides by Fib measured in the same process (the Sync row is the classic build's); bytes per call of the recursion.");
        md.AppendLine();
        md.AppendLine("| Variant | ms | ÷ Sync | ÷ Task (time) | bytes/call |");
        md.AppendLine("| --- | --- | --- | --- | --- |");
        var task = c.Value("fib", "Task", name);
        foreach (var variant in (string[])["Sync", BenchPlan.Name("Sync", onNet11: true), .. AsyncVariants])
        {
            var cell = c.Get("fib", variant, name);
            if (cell is null)
            {
                c.SkippedRow(md, "fib", variant, name, columns: 5);
                continue;
            }
            md.AppendLine($"| {variant} | {c.Text("fib", variant, name)} | {Format.Ratio(cell.Value / c.SyncFor(variant, name))} | {Format.Ratio(cell.Value / task)} | {Format.Bytes(cell.BytesPerOp)} |");
        }
        md.AppendLine();
        md.AppendLine("Seed 001: Fib 250 ms; classic FibAsync 1412 ms; runtime async 730 ms, 255 ms with optimizations.");
        md.AppendLine();
    }

    private static void Suspend(StringBuilder md, Lookup c)
    {
        if (!c.Has("suspend"))
            return;
        var name = c.FirstCase("suspend")!;
        md.AppendLine($"## 5. Suspension-heavy: {name} of a never-completed awaiter, resumed by hand (ms)");
        md.AppendLine();
        md.AppendLine("| Variant | ms | ÷ Task (time) | bytes/suspension |");
        md.AppendLine("| --- | --- | --- | --- |");
        var task = c.Value("suspend", "Task", name);
        foreach (var variant in AsyncVariants)
            if (c.Get("suspend", variant, name) is { } cell)
                md.AppendLine($"| {variant} | {c.Text("suspend", variant, name)} | {Format.Ratio(cell.Value / task)} | {Format.Bytes(cell.BytesPerOp)} |");
            else
                c.SkippedRow(md, "suspend", variant, name, columns: 4);
        md.AppendLine();
        md.AppendLine("Seed 004 (runtime async, 10,000,000 awaits): 350 ms before, 291 ms after that PR.");
        md.AppendLine();
        var sourceCases = c.Cases("suspend").Where(@case => @case != name).ToList();
        if (sourceCases.Count == 0)
            return;
        md.AppendLine("The same with a ValueTask over a reusable `IValueTaskSource` completed by hand (as a channel, a pipe or a socket gives): "
            + "one method awaiting it in a loop, and top-level calls that each await it once with `ConfigureAwait(false)`, as a library's methods do "
            + "(bytes per await or per call). Each cell: ms, ÷ Task, bytes.");
        md.AppendLine();
        string[] variants = TaskOnlyVariants;
        md.AppendLine("| Case | " + string.Join(" | ", variants) + " |");
        md.AppendLine("| --- |" + string.Concat(Enumerable.Repeat(" --- |", variants.Length)));
        foreach (var @case in sourceCases)
            md.AppendLine($"| {@case} | " + string.Join(" | ", variants.Select(v => c.Get("suspend", v, @case) is { } cell
                ? $"{c.Text("suspend", v, @case)} ({Format.Ratio(cell.Value / c.Value("suspend", "Task", @case))}, {Format.Bytes(cell.BytesPerOp)})"
                : "")) + " |");
        md.AppendLine();
    }

    private static void Chains(StringBuilder md, Lookup c)
    {
        if (!c.Has("chain") && !c.Has("deep"))
            return;
        md.AppendLine("## 6. Chains of tasks and recursion (seed 003; ms unless noted)");
        md.AppendLine();
        md.AppendLine("AddOne: each link awaits the previous task; the time covers building the chain and completing it from the far end. "
            + "+Yield adds `await Task.Yield()` in every link. CountRecursivelyAsync never suspends (time per call). Bytes per link / per frame, all threads.");
        md.AppendLine();
        md.AppendLine("| Case | " + string.Join(" | ", AsyncVariants) + " | " + string.Join(" | ", Async2Everywhere.Select(v => v + " ÷ Task (time)"))
            + " | bytes " + string.Join(" · ", AsyncVariants) + " |");
        md.AppendLine("| --- |" + string.Concat(Enumerable.Repeat(" --- |", AsyncVariants.Length + Async2Everywhere.Length + 1)));
        foreach (var name in c.Cases("chain").Concat(c.Cases("deep")))
        {
            var bench = c.Cases("deep").Contains(name) ? "deep" : "chain";
            md.AppendLine($"| {name} | " + string.Join(" | ", AsyncVariants.Select(v => c.Text(bench, v, name)))
                + " | " + string.Join(" | ", Async2Everywhere.Select(v => Format.Ratio(c.Value(bench, v, name) / c.Value(bench, "Task", name))))
                + " | " + string.Join(" · ", AsyncVariants.Select(v => Format.Bytes(c.Get(bench, v, name)?.BytesPerOp))) + " |");
        }
        md.AppendLine();
        md.AppendLine("Seed 003: 1,000,000 links about 1300 ms with Task.Yield, about 600 ms without (2017 hardware, other scheduler).");
        md.AppendLine();
    }

    /// <summary>The suspension-heavy cases with a listener on Async2's meter, next to the same build without one.</summary>
    private static void MetricsListenerCost(StringBuilder md, Lookup c)
    {
        const string listened = "Async2Listened";
        var rows = new[] { "suspend", "chain" }.SelectMany(bench => c.Cases(bench).Select(name => (Bench: bench, Name: name)))
            .Where(row => c.Get(row.Bench, listened, row.Name) is not null)
            .ToList();
        if (rows.Count == 0)
            return;
        md.AppendLine("## 7. With a metrics listener (ms)");
        md.AppendLine();
        md.AppendLine("The Async2 build with a `MeterListener` taking every measurement of Async2's meter (`bench/Async2.Bench/MetricsListener.cs`), "
            + "next to the same build with nobody listening, where the runtime only tests whether anyone does (`src/Async2.Runtime/Telemetry.cs`).");
        md.AppendLine();
        md.AppendLine("| Case | Async2 | Async2, listened | listened ÷ not | Task |");
        md.AppendLine("| --- | --- | --- | --- | --- |");
        foreach (var (bench, name) in rows)
            md.AppendLine($"| {name} | {c.Text(bench, "Async2", name)} | {c.Text(bench, listened, name)} | "
                + $"{Format.Ratio(c.Value(bench, listened, name) / c.Value(bench, "Async2", name))} | {c.Text(bench, "Task", name)} |");
        md.AppendLine();
    }

    // ---------------------------------------------------------------- 8. applications

    private static void Applications(StringBuilder md, Lookup c, bool quick, string? wrk)
    {
        if (!c.Has(WebApiBench.Benchmark))
            return;
        string[] variants = TaskOnlyVariants;
        md.AppendLine("## 8. Application scenarios");
        md.AppendLine();
        if (WebApiBench.Endpoints.Any(e => c.Any(WebApiBench.Benchmark, WebApiBench.Case(e)) is not null))
        {
            md.AppendLine("### Web API (`bench/Async2.Bench.WebApi`, ASP.NET Core minimal API)");
            md.AppendLine();
            md.AppendLine("Each endpoint calls three layers of async methods; the innermost waits on nothing (`sync`), `Task.Yield()` (`yield`), `Task.Delay(1)` (`delay`) "
                + "or a reply from a background task through a bounded `Channel` (`channel`). Each build runs as its own server on 127.0.0.1 (server GC, the Web SDK's default); "
                + "every endpoint's answer is compared with the classic build's before any load, and a build that answers differently posts no number. "
                + $"Load: {(wrk is null || wrk.StartsWith("wrk", StringComparison.Ordinal) ? wrk ?? "wrk" : "wrk (not installed here)")} on the same machine as the server, "
                + $"{WebApiBench.WrkThreads} thread, {WebApiBench.Connections} keep-alive connections, {WebApiBench.WarmupSeconds(quick)} s of warm-up per endpoint and server, "
                + $"then {WebApiBench.Rounds(quick)} measured rounds of {WebApiBench.Seconds(quick)} s; "
                + "all servers run side by side and take turns, each round in a rotated order, so a busy spell of the machine does not fall on one variant only. "
                + "Requests/s is the median round's, with the spread of the ratio to Task (this variant's worst round ÷ Task's best, and its best ÷ Task's worst); latency percentiles are wrk's for the median round; "
                + "bytes/request is `GC.GetTotalAllocatedBytes` read from the server before and after each round, ÷ requests; "
                + "CPU/request is the server's user + system time from `/proc/<pid>/stat` over the same windows, ÷ requests.");
            md.AppendLine();
            md.AppendLine("| Endpoint | Variant | req/s | ÷ Task (spread) | p50 (ms) | p99 (ms) | bytes/request | CPU µs/request |");
            md.AppendLine("| --- | --- | --- | --- | --- | --- | --- | --- |");
            foreach (var endpoint in WebApiBench.Endpoints)
            {
                var name = WebApiBench.Case(endpoint);
                var task = c.Value(WebApiBench.Benchmark, "Task", name);
                foreach (var variant in variants)
                {
                    if (c.Get(WebApiBench.Benchmark, variant, name) is not { } cell)
                    {
                        c.SkippedRow(md, WebApiBench.Benchmark, variant, name, columns: 8, rowHeader: name);
                        continue;
                    }
                    md.AppendLine(cell.Failed
                        ? $"| {name} | {variant} | {cell.Note} | | | | | |"
                        : $"| {name} | {variant} | {Format.Number(cell.Value)} | {Format.Ratio(cell.Value / task)} {c.RoundSpread(WebApiBench.Benchmark, variant, "Task", name)} | {Format.Number(c.Extra(WebApiBench.Benchmark, variant, name, "p50Ms"))} "
                            + $"| {Format.Number(c.Extra(WebApiBench.Benchmark, variant, name, "p99Ms"))} | {Format.Bytes(cell.BytesPerOp)} | {Format.Number(c.Extra(WebApiBench.Benchmark, variant, name, "cpuUsPerRequest"))} |");
                }
            }
            md.AppendLine();
        }
        var pipeline = c.Cases(WebApiBench.Benchmark).FirstOrDefault(name => name.StartsWith("JSON pipeline", StringComparison.Ordinal));
        if (pipeline is not null)
        {
            md.AppendLine($"### Streaming pipeline: {pipeline} (`bench/Async2.Bench/Pipeline.cs`)");
            md.AppendLine();
            md.AppendLine("A JSON array of orders is read from a stream that hands out at most 8 KB per read and completes every read asynchronously, deserialized with "
                + "`JsonSerializer.DeserializeAsyncEnumerable`, priced and ranked by two async iterators (whose awaited helpers mostly complete synchronously; one order in fifty suspends), "
                + "passed from a producer task to a consumer through a bounded `Channel` (256), and serialized with `JsonSerializer.SerializeAsync` to a stream that hashes what it is given. "
                + "A variant whose output (hash, length, line count) differs from the classic build's posts no number. Bytes are allocated per input record, all threads; "
                + "CPU time (the process's, all threads, `Environment.CpuUsage`) per input record is the median of the same rounds and moves less than records/s on a busy machine.");
            md.AppendLine();
            md.AppendLine("| Variant | records/s | ÷ Task (spread of rounds) | bytes/record | CPU µs/record |");
            md.AppendLine("| --- | --- | --- | --- | --- |");
            var task = c.Value(WebApiBench.Benchmark, "Task", pipeline);
            foreach (var variant in variants)
                if (c.Get(WebApiBench.Benchmark, variant, pipeline) is { } cell)
                    md.AppendLine(cell.Failed ? $"| {variant} | {cell.Note} | | | |"
                        : $"| {variant} | {Format.Number(cell.Value)} | {Format.Ratio(cell.Value / task)} {c.RoundSpread(WebApiBench.Benchmark, variant, "Task", pipeline)} | {Format.Bytes(cell.BytesPerOp)} "
                            + $"| {Format.Number(c.Extra(WebApiBench.Benchmark, variant, pipeline, "cpuUsPerRecord"))} |");
                else
                    c.SkippedRow(md, WebApiBench.Benchmark, variant, pipeline, columns: 5);
            md.AppendLine();
        }
    }

    // ---------------------------------------------------------------- 9. what servers pay

    /// <summary>Many pending calls, the first suspension in a fresh process, and seed 003's chain beside its Go version.</summary>
    private static void ServerCosts(StringBuilder md, Lookup c, string? goVersion)
    {
        var pending = c.FirstCase("pending");
        var first = c.FirstCase("first");
        var go = c.FirstCase(GoChain.Benchmark);
        if (pending is null && first is null && go is null)
            return;
        md.AppendLine("## 9. What servers pay");
        md.AppendLine();
        string[] variants = TaskOnlyVariants;
        if (pending is not null)
        {
            md.AppendLine($"### Many pending calls: {pending} (`bench/Async2.Bench/Pending.cs`)");
            md.AppendLine();
            md.AppendLine("Top-level async calls all suspend on one gate; the gate opens and each queues on a `SemaphoreSlim` with no free slot; then the semaphore gets 64 slots, "
                + "and each call takes one, makes one more async call and hands the slot on (through the thread pool) until all have completed: a keyed lock's or a connection pool's shape. "
                + "Time from the first call to the last result, and its three phases; bytes allocated per call (all threads); peak heap: the live managed heap after a full GC where all calls wait at once "
                + "(on the gate, then on the semaphore), less the heap before them, in a round of its own.");
            md.AppendLine();
            md.AppendLine("| Variant | ms | ÷ Task (time) | start · gate · drain (ms) | bytes/call | peak heap (MB) | heap bytes/call | peak heap ÷ Task |");
            md.AppendLine("| --- | --- | --- | --- | --- | --- | --- | --- |");
            var task = c.Get("pending", "Task", pending);
            foreach (var variant in variants)
            {
                var cell = c.Get("pending", variant, pending);
                if (cell is null)
                {
                    c.SkippedRow(md, "pending", variant, pending, columns: 8);
                    continue;
                }
                string Extra(string key) => Format.Number(c.Extra("pending", variant, pending, key));
                md.AppendLine(cell.Failed ? $"| {variant} | {cell.Note} | | | | | | |"
                    : $"| {variant} | {Format.Number(cell.Value)} | {Format.Ratio(cell.Value / (task?.Value ?? double.NaN))} | {Extra("startMs")} · {Extra("gateMs")} · {Extra("drainMs")} "
                        + $"| {Format.Bytes(cell.BytesPerOp)} | {Extra("peakHeapMb")} | {Format.Bytes(c.Extra("pending", variant, pending, "peakHeapBytesPerCall"))} "
                        + $"| {Format.Ratio(c.Extra("pending", variant, pending, "peakHeapMb") / c.Extra("pending", "Task", pending, "peakHeapMb"))} |");
            }
            md.AppendLine();
        }
        if (first is not null)
        {
            md.AppendLine($"### First suspension in a fresh process: {first} (`bench/Async2.Bench/FirstSuspension.cs`)");
            md.AppendLine();
            md.AppendLine("Each process makes one top-level call, three async frames deep, whose innermost awaits `Task.Yield()`, first thing in `Main`: "
                + "its time holds the JIT compiling the three methods and everything a first suspension and resumption run (for Async2, loading Async2.Runtime and its dispatch) and the thread pool's first work item. "
                + "\"From spawn\" is the time from the driver starting the process to the call's end (the runtime's own start-up included). "
                + "Fresh processes per variant, the variants taking turns; the median process and the slowest.");
            md.AppendLine();
            md.AppendLine("| Variant | processes | call, median (ms) | call, slowest (ms) | ÷ Task (median) | from spawn, median (ms) |");
            md.AppendLine("| --- | --- | --- | --- | --- | --- |");
            foreach (var variant in variants)
            {
                var cell = c.Get("first", variant, first);
                if (cell is null)
                {
                    c.SkippedRow(md, "first", variant, first, columns: 6);
                    continue;
                }
                var processes = cell.Processes ?? [cell.Value];
                var measured = processes.Where(v => !double.IsNaN(v)).ToList();
                md.AppendLine(cell.Failed ? $"| {variant} | {cell.Note} | | | | |"
                    : $"| {variant} | {measured.Count} of {processes.Count} | {Format.Number(cell.Value)} | {Format.Number(measured.Max())} | {Format.Ratio(cell.Value / c.Value("first", "Task", first))} "
                        + $"| {Format.Number(c.Extra("first", variant, first, "fromSpawnMs"))} |");
            }
            md.AppendLine();
            md.AppendLine("\"From spawn\" is the median process's; each process's call time is in `results.json` (`processes`).");
            md.AppendLine();
        }
        if (go is not null)
        {
            md.AppendLine($"### Seed 003's chain beside Go: {go} (`bench/Async2.Bench.Go/chain.go`)");
            md.AppendLine();
            md.AppendLine("Seed 003 compared its chain of tasks with a Go program: one goroutine per link, joined by unbuffered channels, each taking a number from the one before and handing on that number plus one. "
                + "The Go version is that program, built with Debian's golang" + (goVersion is null ? "" : $" ({goVersion})") + "; the C# columns are section 6's AddOne chain of the same length "
                + "(each link awaits the task before it; the time covers building the chain and completing it). Go's bytes per link are heap only (`runtime.MemStats.TotalAlloc`); "
                + "each goroutine's stack comes on top (the column after it, measured while the whole chain waits).");
            md.AppendLine();
            string[] csharp = ["Task", "Async2", "Async2Capture"];
            md.AppendLine("| Case | Go (ms) | " + string.Join(" | ", csharp.Select(v => v + " (ms)")) + " | Async2 ÷ Go (time) | bytes/link Go heap · Go stack · " + string.Join(" · ", csharp) + " |");
            md.AppendLine("| --- | --- |" + string.Concat(csharp.Select(_ => " --- |")) + " --- | --- |");
            var goCell = c.Get(GoChain.Benchmark, GoChain.Variant, go);
            md.AppendLine($"| {go} | {c.Text(GoChain.Benchmark, GoChain.Variant, go)} | " + string.Join(" | ", csharp.Select(v => c.Text("chain", v, go)))
                + $" | {Format.Ratio(c.Value("chain", "Async2", go) / (goCell?.Value ?? double.NaN))} "
                + $"| {Format.Bytes(goCell?.BytesPerOp)} · {Format.Bytes(c.Extra(GoChain.Benchmark, GoChain.Variant, go, "stackBytesPerLink"))} · "
                + string.Join(" · ", csharp.Select(v => Format.Bytes(c.Get("chain", v, go)?.BytesPerOp))) + " |");
            md.AppendLine();
            md.AppendLine("Seed 003 (2017: Core i7 6700HQ, .NET Core 2.0, Go 1.8.3): Go about 1000 ms; Task<int> with a `Task.Yield()` in every link about 1300 ms, without it about 600 ms.");
            md.AppendLine();
        }
    }

    /// <summary>Cell lookups by benchmark, variant and case.</summary>
    /// <param name="net11Skipped">Why .NET 11 could not be laid out in this run, if it could not.</param>
    private sealed class Lookup(List<BenchCell> cells, string? net11Skipped)
    {
        public bool Has(string benchmark) => cells.Any(c => c.Benchmark == benchmark);

        public bool Has(string benchmark, string variant) => cells.Any(c => c.Benchmark == benchmark && c.Variant == variant);

        public BenchCell? Get(string benchmark, string variant, string @case) =>
            cells.FirstOrDefault(c => c.Benchmark == benchmark && c.Variant == variant && c.Case == @case);

        public BenchCell? Any(string benchmark, string @case) =>
            cells.FirstOrDefault(c => c.Benchmark == benchmark && c.Case == @case);

        public double Value(string benchmark, string variant, string @case) => Get(benchmark, variant, @case)?.Value ?? double.NaN;

        public double Extra(string benchmark, string variant, string @case, string key) =>
            Get(benchmark, variant, @case)?.Extra?.GetValueOrDefault(key, double.NaN) ?? double.NaN;

        /// <summary>A cell's value; for a .NET 11 variant of a run that could not lay .NET 11 out, "skipped".</summary>
        public string Text(string benchmark, string variant, string @case) =>
            Get(benchmark, variant, @case) is { } cell ? cell.Failed ? cell.Note ?? "fails" : Format.Number(cell.Value)
            : net11Skipped is not null && BenchPlan.Net11Variants.Contains(variant) && Has(benchmark) ? "skipped" : "";

        /// <summary>
        /// A table row of one variant per row saying "skipped" for a .NET 11 variant this run could not
        /// measure; nothing for any other missing cell.
        /// </summary>
        /// <param name="columns">The table's columns, the variant's own included (and <paramref name="rowHeader"/>'s, when given).</param>
        public void SkippedRow(StringBuilder md, string benchmark, string variant, string @case, int columns, string? rowHeader = null)
        {
            if (Get(benchmark, variant, @case) is null && Text(benchmark, variant, @case) is { Length: > 0 } skipped)
                md.AppendLine((rowHeader is null ? "" : $"| {rowHeader} ") + $"| {variant} | {skipped} |" + string.Concat(Enumerable.Repeat(" |", columns - 2 - (rowHeader is null ? 0 : 1))));
        }

        public static bool HigherIsBetter(string unit) => unit is "calls/s" or "iter/250ms" or "req/s" or "records/s";

        /// <summary>
        /// Classic async at its better of .NET 10 and .NET 11 in this cell: Task or Task11, whichever
        /// did better (the one measured, when only one was).
        /// </summary>
        public (double Value, string Variant) BestClassic(string benchmark, string @case)
        {
            var measured = new[] { "Task", BenchPlan.Name("Task", onNet11: true) }
                .Select(v => (Cell: Get(benchmark, v, @case), Variant: v)).Where(x => x.Cell is { Failed: false }).ToList();
            if (measured.Count == 0)
                return (double.NaN, "Task");
            var best = HigherIsBetter(measured[0].Cell!.Unit) ? measured.MaxBy(x => x.Cell!.Value) : measured.MinBy(x => x.Cell!.Value);
            return (best.Cell!.Value, best.Variant);
        }

        /// <summary>
        /// "(lo–hi)": <paramref name="variant"/>'s rounds against <paramref name="baseline"/>'s, its
        /// worst round over the baseline's best and its best over the baseline's worst; empty without rounds.
        /// </summary>
        public string RoundSpread(string benchmark, string variant, string baseline, string @case)
        {
            if (Get(benchmark, variant, @case)?.Rounds is not { Count: > 0 } rounds || Get(benchmark, baseline, @case)?.Rounds is not { Count: > 0 } base_)
                return "";
            bool higher = HigherIsBetter(Get(benchmark, variant, @case)!.Unit);
            double lo = higher ? rounds.Min() / base_.Max() : rounds.Max() / base_.Min();
            double hi = higher ? rounds.Max() / base_.Min() : rounds.Min() / base_.Max();
            return $"({Format.Ratio(lo)}–{Format.Ratio(hi)})";
        }

        public List<string> Cases(string benchmark) => cells.Where(c => c.Benchmark == benchmark).Select(c => c.Case).Distinct().ToList();

        public string? FirstCase(string benchmark) => Cases(benchmark).FirstOrDefault();

        /// <summary>Sync Fib measured in the process of <paramref name="variant"/>, which the worker reports with the variant's cell.</summary>
        public double SyncFor(string variant, string @case) =>
            variant.StartsWith("Sync", StringComparison.Ordinal) ? Value("fib", variant, @case) : Extra("fib", variant, @case, "syncMs");

        public List<int> Depths(string benchmark) => Cases(benchmark)
            .Select(k => int.Parse(k[(k.LastIndexOf('d') + 1)..], CultureInfo.InvariantCulture)).Distinct().Order().ToList();

        public int MaxDepth() => Has("eh") ? Depths("eh").Max() : 64;

        /// <summary>
        /// <paramref name="variant"/> against <paramref name="runtime"/> (Runtime or Runtime11) in every cell both measured,
        /// in the direction that is better for each unit.
        /// </summary>
        public (int Better, int Total, List<string> Worse) Versus(string variant, string runtime)
        {
            int better = 0, total = 0;
            var worse = new List<string>();
            foreach (var a in cells.Where(c => c.Variant == variant && !c.Failed))
            {
                var runtimeCase = a.Case.Replace(variant, runtime, StringComparison.Ordinal);
                var r = Get(a.Benchmark, runtime, runtimeCase);
                if (r is null || r.Failed)
                    continue;
                total++;
                double av = a.Value, rv = r.Value;
                if (a.Benchmark == "gc")
                {
                    av = a.Extra?.GetValueOrDefault("heapMb", double.NaN) ?? double.NaN;
                    rv = r.Extra?.GetValueOrDefault("heapMb", double.NaN) ?? double.NaN;
                }
                bool higherIsBetter = HigherIsBetter(a.Unit);
                bool ok = higherIsBetter ? av >= rv : av <= rv;
                if (ok)
                    better++;
                else
                    worse.Add($"{a.Benchmark} {a.Case} ({Format.Number(av)} vs {Format.Number(rv)}{(a.Benchmark == "gc" ? " MB heap" : " " + a.Unit)})");
            }
            return (better, total, worse);
        }
    }
}
