using System.Globalization;

namespace Async2.Cli.Bench;

/// <summary>
/// The JSON pipeline's cells carry a hash, length and line count of what the pipeline wrote; a
/// variant that wrote anything else than the classic build did posts no number.
/// </summary>
internal static class PipelineCheck
{
    private static readonly string[] Keys = ["checksum", "outputBytes", "lines"];

    public static void FailDifferentOutputs(List<BenchCell> cells)
    {
        for (int i = 0; i < cells.Count; i++)
        {
            var cell = cells[i];
            if (cell.Benchmark != WebApiBench.Benchmark || cell.Unit != "records/s" || cell.Failed)
                continue;
            var classic = cells.FirstOrDefault(c => c.Benchmark == cell.Benchmark && c.Case == cell.Case && c.Variant == "Task" && !c.Failed);
            string? problem = classic is null ? "no output of the classic build to compare with"
                : Keys.FirstOrDefault(key => Output(cell, key) != Output(classic, key)) is { } key
                    ? $"output {key} {Output(cell, key)} differs from the classic build's {Output(classic, key)}"
                    : null;
            if (problem is not null)
                cells[i] = cell with { Value = double.NaN, BytesPerOp = null, Note = "fails: " + problem };
        }
    }

    private static string Output(BenchCell cell, string key) =>
        cell.Extra?.TryGetValue(key, out var value) == true ? value.ToString("R", CultureInfo.InvariantCulture) : "(none)";
}
