using System.Globalization;
using System.Text;

namespace Async2.Cli.Bench;

/// <summary>
/// Turns a run's cells into README.md: the machine, the targets, and one table per benchmark in
/// the seed's layout with ratios to Task and bytes allocated per operation.
/// </summary>
internal static class BenchReport
{
    private const string CaptureNote =
        "Async2Capture (seed 002: Async2 in the context-compatible mode) has no mode switch in Async2.Runtime yet, so it is not measured separately: the column repeats Async2 (marked ≡).";

    public static string Markdown(BenchRun run, IReadOnlyList<string> charts)
    {
        var cells = new Lookup(run.Cells);
        var md = new StringBuilder();
        md.AppendLine($"# async2 bench — {run.Mode} run");
        md.AppendLine();
        md.AppendLine("Produced by `async2 bench" + (run.Mode == "quick" ? " --quick" : "") + "`. Variants: **Sync** (no async), **Task** and **ValueTask** (classic compiler state machines), "
            + "**Runtime** (the runtime-async build under `DOTNET_RuntimeAsync=1`), **Async2** (the same build rewritten by `async2 rewrite`, stock runtime). "
            + "Every value is the median of several rounds after warm-up (rounds repeat until two successive ones agree within 3%, or a cap). "
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
        Exceptions(md, cells);
        Finally(md, cells);
        Gc(md, cells);
        Fib(md, cells);
        Suspend(md, cells);
        Chains(md, cells);

        if (charts.Count > 0)
        {
            md.AppendLine("## Charts");
            md.AppendLine();
            foreach (var chart in charts)
                md.AppendLine($"![{Path.GetFileNameWithoutExtension(chart)}]({chart})");
            md.AppendLine();
        }
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

    // ---------------------------------------------------------------- targets

    private static void Targets(StringBuilder md, Lookup c)
    {
        md.AppendLine("## Targets (reported, not asserted)");
        md.AppendLine();
        md.AppendLine("| target | measured | met |");
        md.AppendLine("| --- | --- | --- |");
        void Row(string target, double measured, bool higherIsBetter, double goal, string measuredText)
        {
            string met = double.IsNaN(measured) ? "not measured" : (higherIsBetter ? measured >= goal : measured <= goal) ? "yes" : "**no**";
            md.AppendLine($"| {target} | {measuredText} | {met} |");
        }
        var callRatio = c.Value("callcost", "Async2", "Async2->Async2") / c.Value("callcost", "Task", "Task->Task");
        Row("call cost Async2→Async2 ≥ 4× Task→Task", callRatio, true, 4, Format.Ratio(callRatio));

        var fibCase = c.FirstCase("fib");
        var fibRatio = fibCase is null ? double.NaN : c.Value("fib", "Async2", fibCase) / c.SyncFor("Async2", fibCase);
        Row($"{fibCase ?? "FibAsync"} Async2 ≤ 1.2× Sync", fibRatio, false, 1.2, Format.Ratio(fibRatio));

        foreach (var (scenario, goal) in new[] { ("Throw NoSuspend", 8.0), ("Throw Suspend", 38.0), ("Return Suspend", 2.7) })
        {
            var depth = c.MaxDepth();
            var ratio = c.Value("eh", "Async2", $"{scenario} d{depth}") / c.Value("eh", "Task", $"{scenario} d{depth}");
            Row($"{scenario} d64 Async2 ≥ {goal}× Task" + (depth == 64 ? "" : $" (this run's deepest: d{depth})"), ratio, true, goal, Format.Ratio(ratio));
        }
        var heap = c.Extra("gc", "Async2", "Gen0 pause", "heapMb") / c.Extra("gc", "Task", "Gen0 pause", "heapMb");
        Row("GC heap Async2 ≤ 0.5× Task", heap, false, 0.5, Format.Ratio(heap));
        var suspendCase = c.FirstCase("suspend");
        var suspend = suspendCase is null ? double.NaN : c.Value("suspend", "Async2", suspendCase) / c.Value("suspend", "Task", suspendCase);
        Row("suspension-heavy Async2 time ≤ 0.7× Task", suspend, false, 0.7, Format.Ratio(suspend));
        var bytes = c.Get("callcost", "Async2", "Async2->Async2")?.BytesPerOp ?? double.NaN;
        Row("0 bytes per synchronous Async2→Async2 call", bytes, false, 0.5, Format.Bytes(bytes) + " B/call");

        var (better, total, worse) = c.Async2VersusRuntime();
        md.AppendLine($"| every row Async2 ≥ Runtime | {better} of {total} comparable cells | {(total == 0 ? "not measured" : better == total ? "yes" : "**no**")} |");
        md.AppendLine();
        if (worse.Count > 0)
        {
            md.AppendLine("Cells where Async2 is behind Runtime: " + string.Join("; ", worse) + ".");
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
            + "(`[RuntimeAsyncMethodGeneration(false)]`); the others follow the build. Each cell: calls/s, ratio to Task→Task, bytes allocated per call.");
        md.AppendLine();
        string[] callees = ["Task", "Task (non-inlineable)", "ValueTask", "Runtime", "Runtime (non-inlineable)", "Async2", "Async2 (non-inlineable)", "Async2 with context save"];
        md.AppendLine("| Caller \\ callee | " + string.Join(" | ", callees) + " |");
        md.AppendLine("| --- |" + string.Concat(callees.Select(_ => " --- |")));
        var baseline = c.Value("callcost", "Task", "Task->Task");
        foreach (var caller in new[] { "Task", "Runtime", "Async2" })
        {
            var row = new List<string>();
            foreach (var callee in callees)
            {
                if (callee == "Async2 with context save")
                {
                    row.Add(caller == "Async2" ? "n/a¹" : "");
                    continue;
                }
                var cell = c.Any("callcost", $"{caller}->{callee}");
                row.Add(cell is null ? "" : cell.Failed ? cell.Note! : $"{Format.Number(cell.Value)} ({Format.Ratio(cell.Value / baseline)}, {Format.Bytes(cell.BytesPerOp)} B)");
            }
            md.AppendLine($"| {caller} | " + string.Join(" | ", row) + " |");
        }
        md.AppendLine();
        md.AppendLine("¹ No context-compatible mode switch exists in Async2.Runtime yet, so this cell is not measured.");
        md.AppendLine();
        md.AppendLine("Seed 002 (AMD 5950X, JIT state machine prototype): Task→Task 117,232,360; Async2→Async2 500,753,190 (4.3×); Async2→Task 139,952,617.");
        md.AppendLine();
    }

    // ---------------------------------------------------------------- 2. exceptions

    private static readonly string[] Scenarios = ["Return NoSuspend", "Throw NoSuspend", "Return Suspend", "Throw Suspend"];

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
            md.AppendLine("| Stack depth | Task | ValueTask | Runtime | Async2 | Async2Capture | ValueTask ÷ Task | Runtime ÷ Task | Async2 ÷ Task | bytes/iter Task · ValueTask · Runtime · Async2 |");
            md.AppendLine("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
            foreach (var depth in depths)
            {
                var name = $"{scenario} d{depth}";
                var task = c.Value("eh", "Task", name);
                string V(string variant) => c.Text("eh", variant, name);
                string R(string variant) => Format.Ratio(c.Value("eh", variant, name) / task);
                string B(string variant) => Format.Bytes(c.Get("eh", variant, name)?.BytesPerOp);
                md.AppendLine($"| {depth} | {V("Task")} | {V("ValueTask")} | {V("Runtime")} | {V("Async2")} | ≡ {V("Async2")} | {R("ValueTask")} | {R("Runtime")} | {R("Async2")} | {B("Task")} · {B("ValueTask")} · {B("Runtime")} · {B("Async2")} |");
            }
            md.AppendLine();
        }
        md.AppendLine(CaptureNote);
        md.AppendLine();
        md.AppendLine("Seed 002 at depth 64: Task Throw NoSuspend 484, Async2 3,936 (8.1×); Task Throw Suspend 458, Async2 17,565 (38×); Task Return Suspend 37,086, Async2 98,769 (2.7×).");
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
        md.AppendLine("| Finally blocks on stack | Task Throw NoSuspend | Runtime Throw NoSuspend | Async2 Throw NoSuspend | Async2 ÷ Task | Task Throw Suspend | Runtime Throw Suspend | Async2 Throw Suspend | Async2 ÷ Task |");
        md.AppendLine("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        foreach (var f in c.Cases("ehfinally").Select(k => int.Parse(k[(k.LastIndexOf('f') + 1)..], CultureInfo.InvariantCulture)).Distinct().Order())
        {
            var ns = $"Throw NoSuspend f{f}";
            var s = $"Throw Suspend f{f}";
            md.AppendLine($"| {f} | {c.Text("ehfinally", "Task", ns)} | {c.Text("ehfinally", "Runtime", ns)} | {c.Text("ehfinally", "Async2", ns)} | {Format.Ratio(c.Value("ehfinally", "Async2", ns) / c.Value("ehfinally", "Task", ns))} "
                + $"| {c.Text("ehfinally", "Task", s)} | {c.Text("ehfinally", "Runtime", s)} | {c.Text("ehfinally", "Async2", s)} | {Format.Ratio(c.Value("ehfinally", "Async2", s) / c.Value("ehfinally", "Task", s))} |");
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
        foreach (var variant in new[] { "Task", "ValueTask", "Runtime", "Async2" })
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
        md.AppendLine($"| Async2Capture | ≡ Async2 | | | | | |");
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
        md.AppendLine("Every await finds a completed task. \"÷ Sync\" divides by Fib measured in the same process; bytes per call of the recursion.");
        md.AppendLine();
        md.AppendLine("| Variant | ms | ÷ Sync | ÷ Task (time) | bytes/call |");
        md.AppendLine("| --- | --- | --- | --- | --- |");
        var task = c.Value("fib", "Task", name);
        foreach (var variant in new[] { "Sync", "Task", "ValueTask", "Runtime", "Async2" })
        {
            var cell = c.Get("fib", variant, name);
            if (cell is null)
                continue;
            md.AppendLine($"| {variant} | {c.Text("fib", variant, name)} | {Format.Ratio(cell.Value / c.SyncFor(variant, name))} | {Format.Ratio(cell.Value / task)} | {Format.Bytes(cell.BytesPerOp)} |");
        }
        md.AppendLine("| Async2Capture | ≡ Async2 | | | |");
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
        foreach (var variant in new[] { "Task", "ValueTask", "Runtime", "Async2" })
            if (c.Get("suspend", variant, name) is { } cell)
                md.AppendLine($"| {variant} | {c.Text("suspend", variant, name)} | {Format.Ratio(cell.Value / task)} | {Format.Bytes(cell.BytesPerOp)} |");
        md.AppendLine("| Async2Capture | ≡ Async2 | | |");
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
        md.AppendLine("| Case | Task | ValueTask | Runtime | Async2 | Async2 ÷ Task (time) | bytes Task · ValueTask · Runtime · Async2 |");
        md.AppendLine("| --- | --- | --- | --- | --- | --- | --- |");
        foreach (var name in c.Cases("chain").Concat(c.Cases("deep")))
        {
            var bench = c.Cases("deep").Contains(name) ? "deep" : "chain";
            string B(string v) => Format.Bytes(c.Get(bench, v, name)?.BytesPerOp);
            md.AppendLine($"| {name} | {c.Text(bench, "Task", name)} | {c.Text(bench, "ValueTask", name)} | {c.Text(bench, "Runtime", name)} | {c.Text(bench, "Async2", name)} "
                + $"| {Format.Ratio(c.Value(bench, "Async2", name) / c.Value(bench, "Task", name))} | {B("Task")} · {B("ValueTask")} · {B("Runtime")} · {B("Async2")} |");
        }
        md.AppendLine();
        md.AppendLine("Async2Capture ≡ Async2 (see above). Seed 003: 1,000,000 links about 1300 ms with Task.Yield, about 600 ms without (2017 hardware, other scheduler).");
        md.AppendLine();
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

        /// <summary>Sync Fib measured in the process of <paramref name="variant"/> (Task and ValueTask share the classic one).</summary>
        public double SyncFor(string variant, string @case)
        {
            // The worker reports one Sync cell per process, in the order classic, Runtime, Async2.
            var syncs = cells.Where(c => c.Benchmark == "fib" && c.Variant == "Sync" && c.Case == @case).ToList();
            var index = variant switch { "Runtime" => 1, "Async2" => 2, _ => 0 };
            return syncs.Count > index ? syncs[index].Value : syncs.FirstOrDefault()?.Value ?? double.NaN;
        }

        public List<int> Depths(string benchmark) => Cases(benchmark)
            .Select(k => int.Parse(k[(k.LastIndexOf('d') + 1)..], CultureInfo.InvariantCulture)).Distinct().Order().ToList();

        public int MaxDepth() => Has("eh") ? Depths("eh").Max() : 64;

        /// <summary>Async2 against Runtime in every cell both measured, in the direction that is better for each unit.</summary>
        public (int Better, int Total, List<string> Worse) Async2VersusRuntime()
        {
            int better = 0, total = 0;
            var worse = new List<string>();
            foreach (var a in cells.Where(c => c.Variant == "Async2" && !c.Failed))
            {
                var runtimeCase = a.Case.Replace("Async2", "Runtime", StringComparison.Ordinal);
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
                bool higherIsBetter = a.Unit is "calls/s" or "iter/250ms";
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
