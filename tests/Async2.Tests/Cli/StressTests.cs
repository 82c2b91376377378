using Async2.Tests.Corpus;
using Xunit;
using Xunit.Abstractions;

namespace Async2.Tests.Cli;

/// <summary>
/// Races and load, the short run (tests/stress.sh runs it ten times larger): Fixtures/Stress.cs
/// built classic and rewritten must print the same counts, and those counts must say that every
/// completion was observed once, every result is right, no exception was lost or doubled, none went
/// unobserved, and the heap came back to its baseline. On .NET 11 the rewritten build alone
/// (the counts are absolute; classic adds nothing to them).
/// </summary>
[Trait("Category", "Slow")]
public sealed class StressTests(ITestOutputHelper output)
{
    [Fact]
    public void Rewritten_program_survives_races_and_load_as_classic_does()
    {
        var build = ProgramBuilder.Build("Stress", [Path.Combine(TestEnvironment.FixturesFolder, "Stress.cs")]);

        var classic = ProgramRunner.Run(TestEnvironment.DotnetHost, [build.Classic], timeout: TimeSpan.FromMinutes(5));
        var rewritten = ProgramRunner.Run(TestEnvironment.DotnetHost, [build.Rewritten], timeout: TimeSpan.FromMinutes(5));
        output.WriteLine($"classic:\n{classic.Stdout}{classic.Stderr}\nAsync2:\n{rewritten.Stdout}{rewritten.Stderr}");

        Assert.Equal(0, rewritten.ExitCode);
        Assert.Equal(classic.Stdout, rewritten.Stdout);
        Assert.Equal(ExpectedCounts, rewritten.Stdout.ReplaceLineEndings("\n"));
    }

    [Net11Fact]
    public void On_net11_rewritten_program_survives_races_and_load()
    {
        var build = ProgramBuilder.Build("Stress", [Path.Combine(TestEnvironment.FixturesFolder, "Stress.cs")]);

        var rewritten = ProgramRunner.RunDotnet([build.Rewritten], runtimeAsync: false, TimeSpan.FromMinutes(5), runtime: Net11.Root);
        output.WriteLine($"Async2 on .NET 11:\n{rewritten.Stdout}{rewritten.Stderr}");

        Assert.Equal(0, rewritten.ExitCode);
        Assert.Equal(ExpectedCounts, rewritten.Stdout.ReplaceLineEndings("\n"));
    }

    private static readonly string ExpectedCounts = """
        suspended chains completed from many threads: 100000 chains, sum right, completed twice 0
        completion racing the suspension: 20000 of 20000 completions observed once, sum 20000
        cancellation storm: 20000 of 20000 ended, completed as expected, other faults 0
        deep chains resumed concurrently: 8 chains of depth 1000, all right
        exceptions after suspension: caught 20000 of 20000, missed 0
        unobserved task exceptions: 0
        heap back to its baseline: yes

        """.ReplaceLineEndings("\n");
}
