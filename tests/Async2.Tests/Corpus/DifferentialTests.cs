using Xunit;
using Xunit.Abstractions;

namespace Async2.Tests.Corpus;

/// <summary>
/// Every program in tests/corpus is compiled twice by the SDK's Roslyn and run three ways:
/// (a) classic async on the stock runtime, (b) runtime async under DOTNET_RuntimeAsync=1, and
/// (c) runtime async rewritten by Async2 on the stock runtime. (c) must print exactly what (a)
/// prints and exit with the same code. (b) is the runtime's own implementation: where it differs
/// from (a) the difference is listed in KNOWN_RUNTIME_DIFFERENCES.txt. On .NET 11 (<see cref="Net11"/>),
/// (c11) and (a11): the rewritten and the runtime-async builds, against the classic build there.
/// Compiled without optimizations, as <c>dotnet build</c> and <c>dotnet test</c> compile by default,
/// (c) must match (a) too: Roslyn's Debug IL keeps every temporary in a local and branches differently.
/// </summary>
[Trait("Category", "Slow")]
public sealed class DifferentialTests(ITestOutputHelper output)
{
    private static IReadOnlyList<string> Names() =>
        Directory.GetFiles(TestEnvironment.CorpusFolder, "*.cs").Order(StringComparer.Ordinal).Select(Path.GetFileNameWithoutExtension).ToList()!;

    public static TheoryData<string> Programs() => new(Names());

    public static TheoryData<string> Net11Sample() => Net11.Sample(Names());

    public static TheoryData<string> Net11Rest() => Net11.OutsideSample(Names());

    /// <summary>A program's area: its name's prefix before the first '_'.</summary>
    internal static string Category(string program) => program.Split('_')[0];

    /// <summary>
    /// CI's sample of the Debug builds: the last program of each category (.NET 11's sample takes
    /// the first), so that every area is reached compiled both ways.
    /// </summary>
    private static bool InDebugSample(IReadOnlyList<string> programs, string program) =>
        programs.Last(p => Category(p) == Category(program)) == program;

    public static TheoryData<string> DebugSample()
    {
        var names = Names();
        return new(names.Where(p => InDebugSample(names, p)));
    }

    public static TheoryData<string> DebugRest()
    {
        var names = Names();
        return new(names.Where(p => !InDebugSample(names, p)));
    }

    private static ProgramBuild Build(string program, bool optimize = true) =>
        ProgramBuilder.Build(program, [Path.Combine(TestEnvironment.CorpusFolder, program + ".cs"), .. TestEnvironment.CorpusSupportFiles], optimize);

    [Theory]
    [MemberData(nameof(Programs))]
    public void Rewritten_program_prints_what_classic_prints(string program)
    {
        var build = Build(program);
        var classic = AssertRewrittenPrintsWhatClassicPrints(build, "");

        var runtime = ProgramRunner.Transcript(build.RuntimeAsync, runtimeAsync: true);
        output.WriteLine($"(b) DOTNET_RuntimeAsync=1:\n{runtime}");
        KnownRuntimeDifferences.Net10.AssertMatchesOrIsListed(program, classic, runtime,
            () => ProgramRunner.Transcript(build.RuntimeAsync, runtimeAsync: true));
    }

    /// <summary>(c) against (a), both compiled without optimizations; a CI sample, all in the long mode.</summary>
    [Theory]
    [MemberData(nameof(DebugSample))]
    [LongModeMemberData(nameof(DebugRest))]
    public void Debug_build_rewritten_prints_what_classic_prints(string program)
    {
        AssertRewrittenPrintsWhatClassicPrints(Build(program, optimize: false), ", Debug");
    }

    /// <summary>(c) prints what (a) prints, and the rewritten IL is whole: every method rewritten, none the JIT rejects. Returns (a).</summary>
    private string AssertRewrittenPrintsWhatClassicPrints(ProgramBuild build, string how)
    {
        var classic = ProgramRunner.Transcript(build.Classic, runtimeAsync: false);
        var rewritten = ProgramRunner.Transcript(build.Rewritten, runtimeAsync: false);
        output.WriteLine($"(a) classic{how}:\n{classic}\n(c) rewritten{how}:\n{rewritten}");
        Assert.Equal(classic, rewritten);

        Assert.Empty(RewrittenAssembly.AsyncFlaggedMethods(build.Rewritten));
        Assert.Empty(RewrittenAssembly.AsyncHelpersReferences(build.Rewritten));
        Assert.Empty(RewrittenAssembly.MethodsTheJitRejects(build.Rewritten));
        Assert.Empty(RewrittenAssembly.EntriesReturningOtherThanTheirAwait(build.Rewritten));
        Assert.Empty(RewrittenAssembly.MembersWhoseAttributesCannotBeRead(build.Rewritten));
        Assert.All(build.Report.Methods, m => Assert.True(m.Rewritten, $"{m.Method} was left classic: {m.Reason}"));
        return classic;
    }

    /// <summary>(c11) and (a11): the same builds on .NET 11 (<see cref="Net11.AssertRuns"/>); a CI sample, all in the long mode.</summary>
    [Theory]
    [Net11MemberData(nameof(Net11Sample))]
    [Net11MemberData(nameof(Net11Rest), longModeOnly: true)]
    public void On_net11_rewritten_program_prints_what_classic_prints(string program)
    {
        var build = Build(program);
        Net11.AssertRuns(program, build.Classic, build.RuntimeAsync, build.Rewritten, output);
    }
}
