using Async2.Cli.Bench;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// The bench on .NET 11: which worker processes run there, how their variants are named (the
/// worker's rule in bench/Async2.Bench/Model.cs, the driver's in BenchPlan), and what the report
/// shows when .NET 11 could not be laid out.
/// </summary>
public class BenchNet11Tests
{
    [Theory]
    [InlineData("Task", "Task11")]
    [InlineData("Sync", "Sync11")]
    [InlineData("Runtime", "Runtime11")]
    [InlineData("Async2", "Async2_11")]
    [InlineData("Async2Capture", "Async2Capture_11")]
    public void Variants_on_11_are_named_by_one_rule(string variant, string on11)
    {
        Assert.Equal(on11, BenchPlan.Name(variant, onNet11: true));
        Assert.Equal(variant, BenchPlan.Name(variant, onNet11: false));
    }

    [Fact]
    public void Without_11_no_job_runs_there()
    {
        Assert.DoesNotContain(BenchPlan.Create(quick: true, [], net11: false), job => job.OnNet11);
    }

    [Fact]
    public void With_11_every_benchmark_that_can_runs_each_build_there_too()
    {
        var jobs = BenchPlan.Create(quick: true, [], net11: true);
        foreach (var benchmark in new[] { "callcost", "eh", "ehfinally", "gc", "fib", "suspend", "chain", "deep", "pending", "first", "apps" })
            foreach (var flavor in Enum.GetValues<Flavor>())
            {
                Assert.Contains(jobs, job => job.Benchmark == benchmark && job.Flavor == flavor && job.OnNet11);
                Assert.Contains(jobs, job => job.Benchmark == benchmark && job.Flavor == flavor && !job.OnNet11);
            }
        // ValueTask, short traces and the metrics listener are questions for .NET 10 only.
        Assert.DoesNotContain(jobs, job => job.OnNet11 && (job.Args.Contains("ValueTask") || job.Args.Contains("--short-traces") || job.Args.Contains("--listen")));
    }

    [Fact]
    public void The_first_suspension_runs_at_least_nine_fresh_processes_per_variant_taking_turns()
    {
        var first = BenchPlan.Create(quick: true, ["first"], net11: true);
        foreach (var group in first.GroupBy(job => (job.Flavor, job.OnNet11)))
            Assert.True(group.Count() >= 9, $"{group.Key}: {group.Count()} processes");
        // Turns: the first eight jobs are eight different variants.
        Assert.Equal(8, first.Take(8).Select(job => (job.Flavor, job.OnNet11)).Distinct().Count());
    }

    [Fact]
    public void A_run_without_11_says_so_in_its_columns_and_keeps_the_rest()
    {
        var run = new BenchRun
        {
            Net11Skipped = "cannot restore .NET 11.0.0's runtime packs (NU1102)",
            Cells =
            {
                new BenchCell { Benchmark = "suspend", Variant = "Task", Case = "2,000,000 awaits", Unit = "ms", Value = 200 },
                new BenchCell { Benchmark = "suspend", Variant = "Async2", Case = "2,000,000 awaits", Unit = "ms", Value = 180 },
                new BenchCell { Benchmark = "chain", Variant = "Task", Case = "AddOne x 100,000", Unit = "ms", Value = 20 },
                new BenchCell { Benchmark = "chain", Variant = "Async2", Case = "AddOne x 100,000", Unit = "ms", Value = 18 },
            },
        };
        var markdown = BenchReport.Markdown(run, []);

        Assert.Contains("skipped them: cannot restore .NET 11.0.0's runtime packs (NU1102)", markdown);
        var chainRow = markdown.Split('\n').Single(line => line.StartsWith("| AddOne x 100,000 |", StringComparison.Ordinal));
        Assert.Contains("| 20.0 |", chainRow);
        Assert.Contains("skipped", chainRow);
        Assert.Contains("\n| Runtime11 | skipped | | |\n", markdown.ReplaceLineEndings("\n"));
        Assert.Contains("| suspension-heavy Async2 time ≤ best classic (moonshot 0.7×) | 0.90× of Task | yes |", markdown);
    }

    [Fact]
    public void Targets_compare_with_the_better_of_Task_and_Task11_and_give_the_spread_of_rounds()
    {
        BenchCell Cell(string benchmark, string variant, string @case, string unit, double value, params double[] rounds) =>
            new() { Benchmark = benchmark, Variant = variant, Case = @case, Unit = unit, Value = value, Rounds = rounds.Length == 0 ? null : [.. rounds] };
        var run = new BenchRun
        {
            Cells =
            {
                Cell("suspend", "Task", "2,000,000 awaits", "ms", 200),
                Cell("suspend", "Task11", "2,000,000 awaits", "ms", 150),
                Cell("suspend", "Async2", "2,000,000 awaits", "ms", 180),
                Cell("suspend", "Runtime11", "2,000,000 awaits", "ms", 240),
                Cell("apps", "Task", "GET /yield", "req/s", 1000, 900, 1000, 1100),
                Cell("apps", "Async2", "GET /yield", "req/s", 1050, 990, 1050, 1210),
            },
        };
        var markdown = BenchReport.Markdown(run, []);

        Assert.Contains("| suspension-heavy Async2 time ≤ best classic (moonshot 0.7×) | 1.20× of Task11 | **no** |", markdown);
        Assert.Contains("| suspension-heavy Async2 time ≤ Runtime11 | 0.75× | yes |", markdown);
        Assert.Contains("| web API /yield Async2 ≥ Task (req/s) | 1.05× (0.90×–1.34×) | yes |", markdown);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void The_short_traces_table_sets_Runtime11_beside_Async2_when_it_ran(bool with11)
    {
        var run = new BenchRun();
        foreach (var (variant, value) in new[] { ("Task", 500.0), ("Runtime", 33_000.0), ("Runtime11", 27_000.0), ("Async2", 9_600.0), ("Async2ShortTraces", 39_000.0) })
        {
            if (variant == "Runtime11" && !with11)
                continue;
            run.Cells.Add(new BenchCell { Benchmark = "eh", Variant = variant, Case = "Throw Suspend d64", Unit = "iter/250ms", Value = value });
        }
        var lines = BenchReport.Markdown(run, []).ReplaceLineEndings("\n").Split('\n');

        int section = Array.IndexOf(lines, "### Throw Suspend, complete or short stack traces");
        Assert.True(section >= 0, "the section is missing");
        var table = lines.Skip(section).SkipWhile(line => !line.StartsWith("| Stack depth", StringComparison.Ordinal)).Take(3).ToArray();
        if (with11)
        {
            Assert.Equal("| Stack depth | Task | Runtime | Runtime11 | Async2 | Async2ShortTraces | Runtime ÷ Task | Runtime11 ÷ Task | Async2 ÷ Task | Async2ShortTraces ÷ Task |", table[0]);
            Assert.StartsWith("| 64 | 500 | 33,000 | 27,000 | 9,600 | 39,000 | 66.0× | 54.0× | 19.2× | 78.0× |", table[2]);
        }
        else
        {
            Assert.Equal("| Stack depth | Task | Runtime | Async2 | Async2ShortTraces | Runtime ÷ Task | Async2 ÷ Task | Async2ShortTraces ÷ Task |", table[0]);
        }
    }
}
