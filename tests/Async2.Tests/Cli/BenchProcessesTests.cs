using Async2.Cli.Bench;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// The thread-pool-bound benchmarks run several worker processes per variant; the report keeps one
/// cell per case, the median process, and every process's value beside it.
/// </summary>
public class BenchProcessesTests
{
    private static BenchCell Cell(string variant, double value, double? bytes = null, string? note = null) =>
        new() { Benchmark = "chain", Variant = variant, Case = "AddOne+Yield x 1,000,000", Unit = "ms", Value = value, BytesPerOp = bytes, Note = note };

    [Fact]
    public void A_case_measured_by_three_processes_becomes_the_median_process()
    {
        var cells = BenchCell.MedianOfProcesses(
        [
            Cell("Task", 430, 112), Cell("Async2", 310, 152),
            Cell("Task", 195, 111), Cell("Async2", 690, 150),
            Cell("Task", 200, 113), Cell("Async2", 305, 151),
        ]);

        Assert.Equal(["Task", "Async2"], cells.Select(c => c.Variant));
        var task = cells[0];
        Assert.Equal(200, task.Value);
        Assert.Equal(113, task.BytesPerOp);
        Assert.Equal([430, 195, 200], task.Processes!);
        var async2 = cells[1];
        Assert.Equal(310, async2.Value);
        Assert.Equal([310, 690, 305], async2.Processes!);
    }

    [Fact]
    public void A_failed_process_is_outvoted_and_a_case_no_process_measured_stays_failed()
    {
        var cells = BenchCell.MedianOfProcesses(
        [
            Cell("Task", double.NaN, note: "fails: timeout"), Cell("Runtime", double.NaN, note: "fails: a"),
            Cell("Task", 300), Cell("Runtime", double.NaN, note: "fails: b"),
            Cell("Task", 200),
        ]);

        Assert.Equal(200, cells.Single(c => c.Variant == "Task").Value);
        var runtime = cells.Single(c => c.Variant == "Runtime");
        Assert.True(runtime.Failed);
        Assert.Equal("fails: a", runtime.Note);
    }

    [Fact]
    public void A_case_measured_once_is_left_as_it_is()
    {
        var once = Cell("Async2", 215, 144);
        var cells = BenchCell.MedianOfProcesses([once]);
        Assert.Same(once, Assert.Single(cells));
        Assert.Null(cells[0].Processes);
    }
}
