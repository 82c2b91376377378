using System.Text.Json;
using System.Text.Json.Serialization;

namespace Async2.Cli.Bench;

/// <summary>
/// One measured cell, as the worker (bench/Async2.Bench) prints it on one JSON line.
/// <see cref="Value"/> is NaN when the cell failed; <see cref="Note"/> then says why ("fails: ...").
/// </summary>
internal sealed record BenchCell
{
    public string Benchmark { get; init; } = "";
    public string Variant { get; init; } = "";
    public string Case { get; init; } = "";
    public string Unit { get; init; } = "";
    [JsonNumberHandling(JsonNumberHandling.AllowNamedFloatingPointLiterals)]
    public double Value { get; init; } = double.NaN;
    [JsonNumberHandling(JsonNumberHandling.AllowNamedFloatingPointLiterals)]
    public double? BytesPerOp { get; init; }
    [JsonNumberHandling(JsonNumberHandling.AllowNamedFloatingPointLiterals)]
    public List<double>? Rounds { get; init; }
    public string? Note { get; init; }
    public Dictionary<string, double>? Extra { get; init; }

    /// <summary>For a cell measured by several worker processes: each process's value, in run order.</summary>
    [JsonNumberHandling(JsonNumberHandling.AllowNamedFloatingPointLiterals)]
    public List<double>? Processes { get; init; }

    public bool Failed => double.IsNaN(Value);

    /// <summary>
    /// One cell per benchmark, variant and case: a case measured by several processes
    /// (<see cref="BenchPlan.ThreadPoolBound"/>) becomes the median of the processes that
    /// measured it, bytes included, with every process's value kept. A case no process measured
    /// keeps the first failure.
    /// </summary>
    public static List<BenchCell> MedianOfProcesses(IEnumerable<BenchCell> cells) =>
        cells.GroupBy(c => (c.Benchmark, c.Variant, c.Case, c.Unit))
            .Select(group =>
            {
                var measured = group.Where(c => !c.Failed).ToList();
                if (group.Count() == 1 || measured.Count == 0)
                    return group.First();
                var median = measured.OrderBy(c => c.Value).ElementAt((measured.Count - 1) / 2);
                return median with { Processes = group.Select(c => c.Value).ToList() };
            })
            .ToList();

    public static readonly JsonSerializerOptions Json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        PropertyNameCaseInsensitive = true,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
        WriteIndented = true,
    };

    /// <summary>The cell on this line, or null if the line is not a cell (worker chatter).</summary>
    public static BenchCell? TryParse(string line)
    {
        if (!line.StartsWith('{'))
            return null;
        try
        {
            return JsonSerializer.Deserialize<BenchCell>(line, Json);
        }
        catch (JsonException)
        {
            return null;
        }
    }
}

/// <summary>Everything one `async2 bench` run produced: the cells and the context they were measured in.</summary>
internal sealed record BenchRun
{
    public string Mode { get; init; } = "full";
    /// <summary>Worker processes per variant for the benchmarks that resume through the thread pool (BenchPlan.ThreadPoolBound).</summary>
    public int ThreadPoolBoundProcesses { get; init; } = BenchPlan.ThreadPoolBoundProcesses;
    public DateTimeOffset Started { get; init; }
    public double DurationSeconds { get; set; }
    public Dictionary<string, string> Machine { get; init; } = new();
    /// <summary>Why .NET 11 could not be laid out, when it could not: its variants' columns say so.</summary>
    public string? Net11Skipped { get; set; }
    public List<BenchCell> Cells { get; init; } = new();
    /// <summary>Jobs that did not finish normally (crash, timeout), with the tail of their output.</summary>
    public List<string> Problems { get; init; } = new();
}
