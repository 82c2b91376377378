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
        var cells = new Lookup(run.Cells);
        var md = new StringBuilder();
        md.AppendLine($"# async2 bench — {run.Mode} run");
        md.AppendLine();
        md.AppendLine("Produced by `async2 bench" + (run.Mode == "quick" ? " --quick" : "") + "`. Variants: **Sync** (no async), **Task** and **ValueTask** (classic compiler state machines), "
            + "**Runtime** (the runtime-async build under `DOTNET_RuntimeAsync=1`), **Async2** (seed 002's async2 semantics: the runtime-async build with `[assembly: FlowContexts]`, "
            + "rewritten by `async2 rewrite`, stock runtime; a callee's AsyncLocal and SynchronizationContext changes flow to its caller) and **Async2Capture** "
            + "(Async2's default, context-compatible mode, what users get without the attribute: the plain runtime-async build rewritten; those changes are undone when a callee returns, as in classic async; "
            + "seed 002's Async2Capture). "
            + "Every value is the median of several rounds after warm-up (rounds repeat until two successive ones agree within 3%, or a cap). "
            + (run.Mode == "full"
                ? $"The benchmarks that resume through the thread pool ({string.Join(", ", BenchPlan.ThreadPoolBound)}) run {BenchPlan.ThreadPoolBoundProcesses} worker processes per variant, the variants taking turns, "
                    + "and each cell is the median process: a process settles at one of two speeds about 2× apart for all its rounds, classic async too (see \"Spread across processes\" at the end). "
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
        Applications(md, cells, run.Mode == "quick", run.Machine.GetValueOrDefault("wrk"));

        if (charts.Count > 0)
        {
            md.AppendLine("## Charts");
            md.AppendLine();
            foreach (var chart in charts)
                md.AppendLine($"![{Path.GetFileNameWithoutExtension(chart)}]({chart})");
            md.AppendLine();
        }
        Spread(md, run.Cells);
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
    private static void Spread(StringBuilder md, IEnumerable<BenchCell> all)
    {
        const double Listed = 1.3;
        var repeated = all.Where(c => c.Processes is { Count: > 1 }).ToList();
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
        md.AppendLine($"{repeated.Count} cells were measured by {BenchPlan.ThreadPoolBoundProcesses} processes each; the tables show the median process. "
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
        md.AppendLine("The targets are set for Async2 (seed 002's semantics); the Async2Capture columns state the same ratios for the default mode users get.");
        md.AppendLine();
        md.AppendLine("| target | Async2 | met | Async2Capture | met |");
        md.AppendLine("| --- | --- | --- | --- | --- |");
        void Row(string target, bool higherIsBetter, double goal, Func<string, double> measure, Func<double, string> format)
        {
            var columns = Async2Variants.Select(variant =>
            {
                var measured = measure(variant);
                string met = double.IsNaN(measured) ? "not measured" : (higherIsBetter ? measured >= goal : measured <= goal) ? "yes" : "**no**";
                return $"{format(measured)} | {met}";
            });
            md.AppendLine($"| {target} | {string.Join(" | ", columns)} |");
        }
        Row("call cost Async2→Async2 ≥ 4× Task→Task", true, 4,
            v => c.Value("callcost", v, $"{v}->{v}") / c.Value("callcost", "Task", "Task->Task"), Format.Ratio);

        var fibCase = c.FirstCase("fib");
        Row($"{fibCase ?? "FibAsync"} Async2 ≤ 1.2× Sync", false, 1.2,
            v => fibCase is null ? double.NaN : c.Value("fib", v, fibCase) / c.SyncFor(v, fibCase), Format.Ratio);

        foreach (var (scenario, goal) in new[] { ("Throw NoSuspend", 8.0), ("Throw Suspend", 38.0), ("Return Suspend", 2.7) })
        {
            var depth = c.MaxDepth();
            Row($"{scenario} d64 Async2 ≥ {goal}× Task" + (depth == 64 ? "" : $" (this run's deepest: d{depth})"), true, goal,
                v => c.Value("eh", v, $"{scenario} d{depth}") / c.Value("eh", "Task", $"{scenario} d{depth}"), Format.Ratio);
        }
        Row("GC heap Async2 ≤ 0.5× Task", false, 0.5,
            v => c.Extra("gc", v, "Gen0 pause", "heapMb") / c.Extra("gc", "Task", "Gen0 pause", "heapMb"), Format.Ratio);
        var suspendCase = c.FirstCase("suspend");
        Row("suspension-heavy Async2 time ≤ 0.7× Task", false, 0.7,
            v => suspendCase is null ? double.NaN : c.Value("suspend", v, suspendCase) / c.Value("suspend", "Task", suspendCase), Format.Ratio);
        Row("0 bytes per synchronous Async2→Async2 call", false, 0.5,
            v => c.Get("callcost", v, $"{v}->{v}")?.BytesPerOp ?? double.NaN, bytes => Format.Bytes(bytes) + " B/call");

        var versusRuntime = Async2Variants.Select(c.VersusRuntime).ToList();
        md.AppendLine("| every row Async2 ≥ Runtime | " + string.Join(" | ", versusRuntime.Select(r =>
            $"{r.Better} of {r.Total} comparable cells | {(r.Total == 0 ? "not measured" : r.Better == r.Total ? "yes" : "**no**")}")) + " |");
        md.AppendLine();
        for (int i = 0; i < Async2Variants.Length; i++)
        {
            if (versusRuntime[i].Worse.Count == 0)
                continue;
            md.AppendLine($"Cells where {Async2Variants[i]} is behind Runtime: " + string.Join("; ", versusRuntime[i].Worse) + ".");
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
            + "Each cell: calls/s, ratio to Task→Task, bytes allocated per call.");
        md.AppendLine();
        string[] callees = ["Task", "Task (non-inlineable)", "ValueTask", "Runtime", "Runtime (non-inlineable)", "Async2", "Async2 (non-inlineable)", "Async2Capture", "Async2Capture (non-inlineable)"];
        md.AppendLine("| Caller \\ callee | " + string.Join(" | ", callees) + " |");
        md.AppendLine("| --- |" + string.Concat(callees.Select(_ => " --- |")));
        var baseline = c.Value("callcost", "Task", "Task->Task");
        foreach (var caller in (string[])["Task", "Runtime", .. Async2Variants])
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
        md.AppendLine("Seed 002 (AMD 5950X, JIT state machine prototype): Task→Task 117,232,360; Async2→Async2 500,753,190 (4.3×); Async2→Task 139,952,617; Async2→Async2 with context save 220,148,034 (1.9×).");
        md.AppendLine();
    }

    /// <summary>The same calls within the worker and into Async2.Bench.Library, per build.</summary>
    private static void AcrossAssemblies(StringBuilder md, Lookup c)
    {
        const string across = " (another assembly)";
        string[] models = ["Task", "Runtime", .. Async2Variants];
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

    /// <summary>Every async variant, Task first (the baseline of the ratios).</summary>
    private static readonly string[] AsyncVariants = ["Task", "ValueTask", "Runtime", .. Async2Variants];

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
        if (!c.Cases("eh").Any(name => c.Get("eh", shortTraces, name) is not null))
            return;
        md.AppendLine("### Throw Suspend, complete or short stack traces");
        md.AppendLine();
        md.AppendLine("By default the frames an exception passes through after a suspension (no handler at their await) are rethrown through "
            + "together so they stay in its stack trace, as in classic async (`src/Async2.Runtime/PassThroughFrames.cs`). "
            + "With the AppContext switch `Async2.CompleteStackTraces=false` they are skipped and left out of the trace, as Runtime does.");
        md.AppendLine();
        string[] variants = ["Task", "Runtime", "Async2", shortTraces];
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
        string[] variants = ["Task", "Runtime", .. Async2Variants];
        md.AppendLine("| Finally blocks on stack | " + string.Join(" | ", scenarios.Select(scenario =>
            string.Join(" | ", variants.Select(v => $"{v} {scenario}")) + " | " + string.Join(" | ", Async2Variants.Select(v => v + " ÷ Task")))) + " |");
        md.AppendLine("| --- |" + string.Concat(Enumerable.Repeat(" --- |", scenarios.Length * (variants.Length + Async2Variants.Length))));
        foreach (var f in c.Cases("ehfinally").Select(k => int.Parse(k[(k.LastIndexOf('f') + 1)..], CultureInfo.InvariantCulture)).Distinct().Order())
        {
            md.AppendLine($"| {f} | " + string.Join(" | ", scenarios.Select(scenario =>
            {
                var name = $"{scenario} f{f}";
                var task = c.Value("ehfinally", "Task", name);
                return string.Join(" | ", variants.Select(v => c.Text("ehfinally", v, name))) + " | "
                    + string.Join(" | ", Async2Variants.Select(v => Format.Ratio(c.Value("ehfinally", v, name) / task)));
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
                continue;
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
        foreach (var variant in (string[])["Sync", .. AsyncVariants])
        {
            var cell = c.Get("fib", variant, name);
            if (cell is null)
                continue;
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
        md.AppendLine();
        md.AppendLine("Seed 004 (runtime async, 10,000,000 awaits): 350 ms before, 291 ms after that PR.");
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
        md.AppendLine("| Case | " + string.Join(" | ", AsyncVariants) + " | " + string.Join(" | ", Async2Variants.Select(v => v + " ÷ Task (time)"))
            + " | bytes " + string.Join(" · ", AsyncVariants) + " |");
        md.AppendLine("| --- |" + string.Concat(Enumerable.Repeat(" --- |", AsyncVariants.Length + Async2Variants.Length + 1)));
        foreach (var name in c.Cases("chain").Concat(c.Cases("deep")))
        {
            var bench = c.Cases("deep").Contains(name) ? "deep" : "chain";
            md.AppendLine($"| {name} | " + string.Join(" | ", AsyncVariants.Select(v => c.Text(bench, v, name)))
                + " | " + string.Join(" | ", Async2Variants.Select(v => Format.Ratio(c.Value(bench, v, name) / c.Value(bench, "Task", name))))
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
        string[] variants = ["Task", "Runtime", .. Async2Variants];
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
                + $"{WebApiBench.WrkThreads} thread, {WebApiBench.Connections} keep-alive connections, {WebApiBench.WarmupSeconds(quick)} s of warm-up then {WebApiBench.Seconds(quick)} s measured per endpoint and server; "
                + "all servers run side by side and take turns, each endpoint in a rotated order, so a busy spell of the machine does not fall on one variant only. "
                + "Requests/s and latency percentiles are wrk's; bytes/request is `GC.GetTotalAllocatedBytes` read from the server before and after, ÷ requests; "
                + "CPU/request is the server's user + system time from `/proc/<pid>/stat` over the same window, ÷ requests.");
            md.AppendLine();
            md.AppendLine("| Endpoint | Variant | req/s | ÷ Task | p50 (ms) | p99 (ms) | bytes/request | CPU µs/request |");
            md.AppendLine("| --- | --- | --- | --- | --- | --- | --- | --- |");
            foreach (var endpoint in WebApiBench.Endpoints)
            {
                var name = WebApiBench.Case(endpoint);
                var task = c.Value(WebApiBench.Benchmark, "Task", name);
                foreach (var variant in variants)
                {
                    if (c.Get(WebApiBench.Benchmark, variant, name) is not { } cell)
                        continue;
                    md.AppendLine(cell.Failed
                        ? $"| {name} | {variant} | {cell.Note} | | | | | |"
                        : $"| {name} | {variant} | {Format.Number(cell.Value)} | {Format.Ratio(cell.Value / task)} | {Format.Number(c.Extra(WebApiBench.Benchmark, variant, name, "p50Ms"))} "
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
            md.AppendLine("| Variant | records/s | ÷ Task | bytes/record | CPU µs/record |");
            md.AppendLine("| --- | --- | --- | --- | --- |");
            var task = c.Value(WebApiBench.Benchmark, "Task", pipeline);
            foreach (var variant in variants)
                if (c.Get(WebApiBench.Benchmark, variant, pipeline) is { } cell)
                    md.AppendLine(cell.Failed ? $"| {variant} | {cell.Note} | | | |"
                        : $"| {variant} | {Format.Number(cell.Value)} | {Format.Ratio(cell.Value / task)} | {Format.Bytes(cell.BytesPerOp)} "
                            + $"| {Format.Number(c.Extra(WebApiBench.Benchmark, variant, pipeline, "cpuUsPerRecord"))} |");
            md.AppendLine();
        }
    }

    /// <summary>Cell lookups by benchmark, variant and case.</summary>
    private sealed class Lookup(List<BenchCell> cells)
    {
        public bool Has(string benchmark) => cells.Any(c => c.Benchmark == benchmark);

        public BenchCell? Get(string benchmark, string variant, string @case) =>
            cells.FirstOrDefault(c => c.Benchmark == benchmark && c.Variant == variant && c.Case == @case);

        public BenchCell? Any(string benchmark, string @case) =>
            cells.FirstOrDefault(c => c.Benchmark == benchmark && c.Case == @case);

        public double Value(string benchmark, string variant, string @case) => Get(benchmark, variant, @case)?.Value ?? double.NaN;

        public double Extra(string benchmark, string variant, string @case, string key) =>
            Get(benchmark, variant, @case)?.Extra?.GetValueOrDefault(key, double.NaN) ?? double.NaN;

        public string Text(string benchmark, string variant, string @case) =>
            Get(benchmark, variant, @case) is not { } cell ? "" : cell.Failed ? cell.Note ?? "fails" : Format.Number(cell.Value);

        public List<string> Cases(string benchmark) => cells.Where(c => c.Benchmark == benchmark).Select(c => c.Case).Distinct().ToList();

        public string? FirstCase(string benchmark) => Cases(benchmark).FirstOrDefault();

        /// <summary>Sync Fib measured in the process of <paramref name="variant"/>, which the worker reports with the variant's cell.</summary>
        public double SyncFor(string variant, string @case) =>
            variant == "Sync" ? Value("fib", "Sync", @case) : Extra("fib", variant, @case, "syncMs");

        public List<int> Depths(string benchmark) => Cases(benchmark)
            .Select(k => int.Parse(k[(k.LastIndexOf('d') + 1)..], CultureInfo.InvariantCulture)).Distinct().Order().ToList();

        public int MaxDepth() => Has("eh") ? Depths("eh").Max() : 64;

        /// <summary><paramref name="variant"/> against Runtime in every cell both measured, in the direction that is better for each unit.</summary>
        public (int Better, int Total, List<string> Worse) VersusRuntime(string variant)
        {
            int better = 0, total = 0;
            var worse = new List<string>();
            foreach (var a in cells.Where(c => c.Variant == variant && !c.Failed))
            {
                var runtimeCase = a.Case.Replace(variant, "Runtime", StringComparison.Ordinal);
                var r = Get(a.Benchmark, "Runtime", runtimeCase);
                if (r is null || r.Failed)
                    continue;
                total++;
                double av = a.Value, rv = r.Value;
                if (a.Benchmark == "gc")
                {
                    av = a.Extra?.GetValueOrDefault("heapMb", double.NaN) ?? double.NaN;
                    rv = r.Extra?.GetValueOrDefault("heapMb", double.NaN) ?? double.NaN;
                }
                bool higherIsBetter = a.Unit is "calls/s" or "iter/250ms" or "req/s" or "records/s";
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
