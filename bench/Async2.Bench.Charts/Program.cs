using System.Text.Json;
using ScottPlot;

namespace Async2.Bench.Charts;

/// <summary>
/// Usage: Async2.Bench.Charts &lt;results.json&gt; &lt;folder&gt;. Writes the charts and prints each file
/// name on its own line (the driver links them from README.md). The variant names are the worker's
/// (bench/Async2.Bench/Model.cs) and the driver's (src/Async2.Cli/Bench/BenchPlan.cs); a variant
/// without a colour here is left out of the charts.
/// </summary>
public static class Program
{
    private sealed record Cell(string Benchmark, string Variant, string Case, string Unit, double Value, double? BytesPerOp, Dictionary<string, double>? Extra);

    private static readonly Dictionary<string, Color> s_colors = new()
    {
        ["Task"] = Color.FromHex("#4e79a7"),
        ["ValueTask"] = Color.FromHex("#76b7b2"),
        ["Runtime"] = Color.FromHex("#f28e2b"),
        ["Async2"] = Color.FromHex("#e15759"),
        ["Async2Capture"] = Color.FromHex("#b07aa1"),
        ["Sync"] = Color.FromHex("#59a14f"),
        // On .NET 11: the lighter shade of the same variant's colour on .NET 10.
        ["Task11"] = Color.FromHex("#a0cbe8"),
        ["Runtime11"] = Color.FromHex("#ffbe7d"),
        ["Async2_11"] = Color.FromHex("#ff9d9a"),
        ["Async2Capture_11"] = Color.FromHex("#d4a6c8"),
    };

    /// <summary>The call-cost matrix's callers (one bar group each, in this order).</summary>
    private static readonly string[] s_callers = ["Task", "Runtime", "Async2", "Async2Capture", "Task11", "Runtime11", "Async2_11", "Async2Capture_11"];

    /// <summary>The variants drawn against Task, on .NET 10 then on .NET 11.</summary>
    private static readonly string[] s_versusTask = ["ValueTask", "Runtime", "Async2", "Async2Capture", "Task11", "Runtime11", "Async2_11", "Async2Capture_11"];

    public static int Main(string[] args)
    {
        if (args.Length != 2)
        {
            Console.Error.WriteLine("usage: Async2.Bench.Charts <results.json> <folder>");
            return 2;
        }
        using var document = JsonDocument.Parse(File.ReadAllText(args[0]));
        var cells = new List<Cell>();
        foreach (var element in document.RootElement.GetProperty("cells").EnumerateArray())
        {
            double value = element.GetProperty("value").ValueKind == JsonValueKind.Number ? element.GetProperty("value").GetDouble() : double.NaN;
            Dictionary<string, double>? extra = null;
            if (element.TryGetProperty("extra", out var e) && e.ValueKind == JsonValueKind.Object)
                extra = e.EnumerateObject().Where(p => p.Value.ValueKind == JsonValueKind.Number).ToDictionary(p => p.Name, p => p.Value.GetDouble());
            cells.Add(new Cell(element.GetProperty("benchmark").GetString()!, element.GetProperty("variant").GetString()!,
                element.GetProperty("case").GetString()!, element.GetProperty("unit").GetString()!, value, null, extra));
        }
        var folder = args[1];
        Directory.CreateDirectory(folder);
        foreach (var file in CallCost(cells, folder).Concat(Exceptions(cells, folder)).Concat(Finally(cells, folder)).Concat(Summary(cells, folder)).Concat(Applications(cells, folder)))
            Console.WriteLine(file);
        return 0;
    }

    private static double Value(List<Cell> cells, string benchmark, string variant, string @case) =>
        cells.FirstOrDefault(c => c.Benchmark == benchmark && c.Variant == variant && c.Case == @case)?.Value ?? double.NaN;

    /// <summary>The call-cost matrix as bars: each measured caller→callee pair relative to Task→Task.</summary>
    private static IEnumerable<string> CallCost(List<Cell> cells, string folder)
    {
        var measured = cells.Where(c => c.Benchmark == "callcost" && !double.IsNaN(c.Value)).ToList();
        var baseline = Value(cells, "callcost", "Task", "Task->Task");
        if (measured.Count == 0 || double.IsNaN(baseline))
            yield break;
        var plot = new Plot();
        var ordered = measured.OrderBy(c => Array.IndexOf(s_callers, c.Case.Split("->")[0])).ThenBy(c => c.Case, StringComparer.Ordinal).ToList();
        var bars = new List<Bar>();
        var ticks = new List<Tick>();
        for (int i = 0; i < ordered.Count; i++)
        {
            var caller = ordered[i].Case.Split("->")[0];
            var callee = ordered[i].Case.Split("->")[1];
            var colorKey = ColorKey(caller, callee);
            double percent = ordered[i].Value / baseline * 100;
            bars.Add(new Bar { Position = i, Value = percent, FillColor = s_colors[colorKey], Label = $"{percent:F0}%", Orientation = Orientation.Horizontal });
            ticks.Add(new Tick(i, $"{caller} → {callee}"));
        }
        var barPlot = plot.Add.Bars(bars);
        barPlot.Horizontal = true;
        barPlot.ValueLabelStyle.FontSize = 11;
        plot.Axes.Left.TickGenerator = new ScottPlot.TickGenerators.NumericManual(ticks.ToArray());
        plot.Axes.Left.MajorTickStyle.Length = 0;
        plot.Add.VerticalLine(100, 1, Colors.Gray, LinePattern.Dashed);
        plot.Axes.Margins(left: 0, right: 0.15);
        plot.Title("Minimum call cost: calls/s relative to Task → Task");
        plot.XLabel("% of Task → Task (higher is faster)");
        yield return Save(plot, folder, "callcost.svg", 900, 120 + 34 * ordered.Count);
    }

    /// <summary>A call-cost bar takes the colour of the non-Task model it measures, the callee's if both are.</summary>
    private static string ColorKey(string caller, string callee)
    {
        var calleeModel = callee.Split(' ')[0];
        if (s_callers.Contains(calleeModel) && !calleeModel.StartsWith("Task", StringComparison.Ordinal))
            return calleeModel;
        if (!caller.StartsWith("Task", StringComparison.Ordinal))
            return caller;
        return callee == "ValueTask" ? "ValueTask" : caller;
    }

    /// <summary>Seed 002's relative-performance charts: each variant against Task, per depth, one chart per scenario.</summary>
    private static IEnumerable<string> Exceptions(List<Cell> cells, string folder)
    {
        var eh = cells.Where(c => c.Benchmark == "eh").ToList();
        if (eh.Count == 0)
            yield break;
        var depths = eh.Select(c => int.Parse(c.Case[(c.Case.LastIndexOf('d') + 1)..])).Distinct().Order().ToArray();
        foreach (var scenario in new[] { "Return NoSuspend", "Throw NoSuspend", "Return Suspend", "Throw Suspend" })
        {
            var plot = new Plot();
            foreach (var variant in s_versusTask)
            {
                var xs = new List<double>();
                var ys = new List<double>();
                foreach (var d in depths)
                {
                    var ratio = Value(cells, "eh", variant, $"{scenario} d{d}") / Value(cells, "eh", "Task", $"{scenario} d{d}");
                    if (double.IsNaN(ratio))
                        continue;
                    xs.Add(Math.Log2(d));
                    ys.Add(ratio * 100);
                }
                if (xs.Count == 0)
                    continue;
                var line = plot.Add.Scatter(xs.ToArray(), ys.ToArray(), s_colors[variant]);
                line.LegendText = variant;
                line.LineWidth = 2;
                line.MarkerSize = 7;
                line.LinePattern = variant.EndsWith("11", StringComparison.Ordinal) ? LinePattern.Dotted : LinePattern.Solid;
            }
            plot.Add.HorizontalLine(100, 1, s_colors["Task"], LinePattern.Dashed).LegendText = "Task = 100%";
            plot.Axes.Bottom.TickGenerator = new ScottPlot.TickGenerators.NumericManual(depths.Select(d => new Tick(Math.Log2(d), d.ToString())).ToArray());
            plot.Title($"{scenario}: iterations relative to Task");
            plot.XLabel("stack depth");
            plot.YLabel("% of Task (higher is faster)");
            plot.ShowLegend(Alignment.UpperLeft);
            plot.Axes.SetLimitsY(0, double.NaN);
            yield return Save(plot, folder, $"eh-{scenario.ToLowerInvariant().Replace(' ', '-')}.svg", 800, 450);
        }
    }

    /// <summary>Throw performance with 1..32 try/finally frames on a 32-deep stack.</summary>
    private static IEnumerable<string> Finally(List<Cell> cells, string folder)
    {
        var fin = cells.Where(c => c.Benchmark == "ehfinally" && !double.IsNaN(c.Value)).ToList();
        if (fin.Count == 0)
            yield break;
        var counts = fin.Select(c => int.Parse(c.Case[(c.Case.LastIndexOf('f') + 1)..])).Distinct().Order().ToArray();
        var plot = new Plot();
        foreach (var suspend in new[] { "NoSuspend", "Suspend" })
            foreach (var variant in s_callers)
            {
                var points = counts.Select(f => (X: Math.Log2(f), Y: Value(cells, "ehfinally", variant, $"Throw {suspend} f{f}"))).Where(p => !double.IsNaN(p.Y)).ToArray();
                if (points.Length == 0)
                    continue;
                var line = plot.Add.Scatter(points.Select(p => p.X).ToArray(), points.Select(p => p.Y).ToArray(), s_colors[variant]);
                line.LegendText = $"{variant} Throw {suspend}";
                line.LineWidth = 2;
                line.LinePattern = suspend == "Suspend" ? LinePattern.Solid : LinePattern.Dashed;
            }
        plot.Axes.Bottom.TickGenerator = new ScottPlot.TickGenerators.NumericManual(counts.Select(f => new Tick(Math.Log2(f), f.ToString())).ToArray());
        plot.Title("Throw at depth 32 with n try/finally frames on the stack");
        plot.XLabel("finally blocks on the stack");
        plot.YLabel("iterations per 250 ms");
        plot.ShowLegend(Alignment.UpperRight);
        plot.Axes.SetLimitsY(0, double.NaN);
        yield return Save(plot, folder, "eh-finally.svg", 800, 450);
    }

    /// <summary>The single-number benchmarks as speed-up over Task (Task time ÷ variant time; for GC, Task heap ÷ variant heap).</summary>
    private static IEnumerable<string> Summary(List<Cell> cells, string folder)
    {
        var rows = new List<(string Label, string Variant, double Ratio)>();
        foreach (var group in cells.Where(c => c.Benchmark is "fib" or "suspend" or "chain" or "pending" or "first" && !double.IsNaN(c.Value) && c.Variant != "Sync")
                     .GroupBy(c => (c.Benchmark, c.Case)))
        {
            var task = Value(cells, group.Key.Benchmark, "Task", group.Key.Case);
            // Variants measured for one question only (a metrics listener attached) stay in their own tables.
            foreach (var cell in group.Where(c => c.Variant != "Task" && s_colors.ContainsKey(c.Variant)))
                rows.Add(($"{group.Key.Case}", cell.Variant, task / cell.Value));
        }
        double Heap(string v) => cells.FirstOrDefault(c => c.Benchmark == "gc" && c.Variant == v)?.Extra?.GetValueOrDefault("heapMb", double.NaN) ?? double.NaN;
        foreach (var variant in s_versusTask)
            if (!double.IsNaN(Heap(variant)))
                rows.Add(("GC heap (10,000 × 100 frames)", variant, Heap("Task") / Heap(variant)));
        if (RelativeToTask(rows, "Relative to Task: Task time ÷ variant time (GC: Task heap ÷ variant heap)",
                "% of Task (higher is better)", folder, "summary.svg") is { } chart)
            yield return chart;
    }

    /// <summary>The application scenarios' throughput (requests/s, records/s) relative to Task, a bar per case and variant.</summary>
    private static IEnumerable<string> Applications(List<Cell> cells, string folder)
    {
        var rows = new List<(string Label, string Variant, double Ratio)>();
        foreach (var group in cells.Where(c => c.Benchmark == "apps" && !double.IsNaN(c.Value)).GroupBy(c => c.Case))
        {
            var task = Value(cells, "apps", "Task", group.Key);
            foreach (var cell in group.Where(c => c.Variant != "Task" && s_colors.ContainsKey(c.Variant)))
                rows.Add((group.Key, cell.Variant, cell.Value / task));
        }
        if (RelativeToTask(rows, "Application scenarios: throughput relative to Task",
                "% of Task's requests/s or records/s (higher is faster)", folder, "apps.svg") is { } chart)
            yield return chart;
    }

    /// <summary>
    /// Horizontal bars, one per row, at the row's ratio to Task in percent, with a dashed line at
    /// Task's 100%; rows without a finite ratio are left out. Null when none is left.
    /// </summary>
    private static string? RelativeToTask(List<(string Label, string Variant, double Ratio)> rows, string title, string xLabel, string folder, string name)
    {
        rows = rows.Where(r => !double.IsNaN(r.Ratio) && !double.IsInfinity(r.Ratio)).ToList();
        if (rows.Count == 0)
            return null;
        var plot = new Plot();
        var bars = new List<Bar>();
        var ticks = new List<Tick>();
        for (int i = 0; i < rows.Count; i++)
        {
            bars.Add(new Bar { Position = i, Value = rows[i].Ratio * 100, FillColor = s_colors[rows[i].Variant], Label = $"{rows[i].Ratio * 100:F0}%", Orientation = Orientation.Horizontal });
            ticks.Add(new Tick(i, $"{rows[i].Label} · {rows[i].Variant}"));
        }
        var barPlot = plot.Add.Bars(bars);
        barPlot.Horizontal = true;
        plot.Axes.Left.TickGenerator = new ScottPlot.TickGenerators.NumericManual(ticks.ToArray());
        plot.Axes.Left.MajorTickStyle.Length = 0;
        plot.Add.VerticalLine(100, 1, Colors.Gray, LinePattern.Dashed);
        plot.Axes.Margins(left: 0, right: 0.15);
        plot.Title(title);
        plot.XLabel(xLabel);
        return Save(plot, folder, name, 950, 120 + 30 * rows.Count);
    }

    private static string Save(Plot plot, string folder, string name, int width, int height)
    {
        plot.SaveSvg(Path.Combine(folder, name), width, height);
        return name;
    }
}
