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
/// </summary>
[Trait("Category", "Slow")]
public sealed class DifferentialTests(ITestOutputHelper output)
{
    private static IReadOnlyList<string> Names() =>
        Directory.GetFiles(TestEnvironment.CorpusFolder, "*.cs").Order(StringComparer.Ordinal).Select(Path.GetFileNameWithoutExtension).ToList()!;

    public static TheoryData<string> Programs() => new(Names());

    public static TheoryData<string> Net11Sample() => Net11.Sample(Names());

    public static TheoryData<string> Net11Rest() => Net11.OutsideSample(Names());

    private static ProgramBuild Build(string program) =>
        ProgramBuilder.Build(program, [Path.Combine(TestEnvironment.CorpusFolder, program + ".cs"), .. TestEnvironment.CorpusSupportFiles]);

    [Theory]
    [MemberData(nameof(Programs))]
    public void Rewritten_program_prints_what_classic_prints(string program)
    {
        var build = Build(program);

        var classic = ProgramRunner.Transcript(build.Classic, runtimeAsync: false);
        var rewritten = ProgramRunner.Transcript(build.Rewritten, runtimeAsync: false);
        output.WriteLine($"(a) classic:\n{classic}\n(c) rewritten:\n{rewritten}");
        Assert.Equal(classic, rewritten);

        Assert.Empty(RewrittenAssembly.AsyncFlaggedMethods(build.Rewritten));
        Assert.Empty(RewrittenAssembly.AsyncHelpersReferences(build.Rewritten));
        Assert.Empty(RewrittenAssembly.MethodsTheJitRejects(build.Rewritten));
        Assert.Empty(RewrittenAssembly.EntriesReturningOtherThanTheirAwait(build.Rewritten));
        Assert.Empty(RewrittenAssembly.MembersWhoseAttributesCannotBeRead(build.Rewritten));
        Assert.All(build.Report.Methods, m => Assert.True(m.Rewritten, $"{m.Method} was left classic: {m.Reason}"));

        var runtime = ProgramRunner.Transcript(build.RuntimeAsync, runtimeAsync: true);
        output.WriteLine($"(b) DOTNET_RuntimeAsync=1:\n{runtime}");
        KnownRuntimeDifferences.Net10.AssertMatchesOrIsListed(program, classic, runtime);
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
