using Async2.Tests.Corpus;
using Async2.Cli.Runtimes;
using Mono.Cecil;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// Seed 003's CountRecursivelyAsync(1,000,000): the rewritten build completes on the 8 MB main
/// thread and on a 1.5 MB thread-pool thread, where the classic build overflows the stack; on
/// .NET 11 too, where the runtime's own runtime async overflows it as classic async does.
/// </summary>
public sealed class DeepRecursionTests
{
    private const int Depth = 1_000_000;

    private static ProgramBuild Build() =>
        ProgramBuilder.Build("DeepRecursion", [Path.Combine(TestEnvironment.FixturesFolder, "DeepRecursion.cs")]);

    [Fact]
    public void Rewritten_build_counts_a_million_levels_deep() => AssertCountsAMillionLevelsDeep(runtime: null);

    [Net11Fact]
    public void On_net11_rewritten_build_counts_a_million_levels_deep() => AssertCountsAMillionLevelsDeep(Net11.Root);

    private static void AssertCountsAMillionLevelsDeep(RuntimeRoot? runtime)
    {
        var (exitCode, stdout, stderr) = ProgramRunner.RunDotnet([Build().Rewritten, Depth.ToString()], runtimeAsync: false, runtime: runtime);
        Assert.True(exitCode == 0, $"exit code {exitCode}\n{stderr}");
        long expectedSum = (long)Depth * (Depth + 1) / 2 + 7;
        Assert.Equal(
            $"main thread: counted to {Depth}\nthread pool: counted to {Depth}\nmutual: {Depth} is even: True\nsum {expectedSum}, finally blocks run {Depth + 1}\n",
            stdout.ReplaceLineEndings("\n"));
    }

    /// <summary>The check costs every call a little, so only methods on a call cycle pay it.</summary>
    [Theory]
    [InlineData("CountRecursivelyAsync", true)]
    [InlineData("IsEvenAsync", true)]
    [InlineData("IsOddAsync", true)]
    [InlineData("SumWithFinallyAsync", true)]
    [InlineData("Main", false)]
    public void Only_recursive_methods_check_the_stack(string method, bool expectGuard)
    {
        using var module = ModuleDefinition.ReadModule(Build().Rewritten);
        foreach (var variant in RewrittenAssembly.Variants(module, "Program", method))
        {
            bool guarded = variant.Body.Instructions.Any(i => i.Operand is MethodReference { Name: "MustSuspend" });
            Assert.True(guarded == expectGuard, $"{variant.FullName}: expected {(expectGuard ? "a" : "no")} stack check");
        }
    }

    [Fact]
    public void Classic_build_overflows_the_stack_at_that_depth()
    {
        var (exitCode, _, stderr) = ProgramRunner.RunDotnet([Build().Classic, Depth.ToString()], runtimeAsync: false);
        Assert.NotEqual(0, exitCode);
        Assert.Contains("Stack overflow", stderr);
    }

    /// <summary>What the rewrite is for on .NET 11 as well: its native runtime async is as deep as classic async.</summary>
    [Net11Fact]
    public void On_net11_native_runtime_async_overflows_the_stack_at_that_depth()
    {
        var (exitCode, _, stderr) = ProgramRunner.RunDotnet([Build().RuntimeAsync, Depth.ToString()], runtimeAsync: false, runtime: Net11.Root);
        Assert.NotEqual(0, exitCode);
        Assert.Contains("Stack overflow", stderr);
    }

    [Fact]
    public void Both_builds_agree_where_classic_fits_on_the_stack()
    {
        var build = Build();
        var classic = ProgramRunner.RunDotnet([build.Classic, "1000"], runtimeAsync: false);
        var rewritten = ProgramRunner.RunDotnet([build.Rewritten, "1000"], runtimeAsync: false);
        Assert.Equal(0, classic.ExitCode);
        Assert.Equal(classic.Stdout, rewritten.Stdout);
    }
}
