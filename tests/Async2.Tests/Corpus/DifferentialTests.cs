using Xunit;
using Xunit.Abstractions;

namespace Async2.Tests.Corpus;

/// <summary>
/// Every program in tests/corpus is compiled twice by the SDK's Roslyn and run three ways:
/// (a) classic async on the stock runtime, (b) runtime async under DOTNET_RuntimeAsync=1, and
/// (c) runtime async rewritten by Async2 on the stock runtime. (c) must print exactly what (a)
/// prints and exit with the same code. (b) is the runtime's own implementation: where it differs
/// from (a) the difference is listed in KNOWN_RUNTIME_DIFFERENCES.txt.
/// </summary>
[Trait("Category", "Slow")]
public sealed class DifferentialTests(ITestOutputHelper output)
{
    public static TheoryData<string> Programs()
    {
        var data = new TheoryData<string>();
        foreach (var file in Directory.GetFiles(TestEnvironment.CorpusFolder, "*.cs").Order(StringComparer.Ordinal))
            data.Add(Path.GetFileNameWithoutExtension(file));
        return data;
    }

    [Theory]
    [MemberData(nameof(Programs))]
    public void Rewritten_program_prints_what_classic_prints(string program)
    {
        var build = ProgramBuilder.Build(program, [Path.Combine(TestEnvironment.CorpusFolder, program + ".cs"), .. TestEnvironment.CorpusSupportFiles]);

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
        KnownRuntimeDifferences.AssertMatchesOrIsListed(program, classic, runtime);
    }
}
