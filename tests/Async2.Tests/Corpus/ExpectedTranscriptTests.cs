using Xunit;
using Xunit.Abstractions;

namespace Async2.Tests.Corpus;

/// <summary>
/// Programs in tests/expected show behaviour that differs from classic async by design: flowing
/// context mode, and seed 002's ConfigureAwait attribute, which classic compilers ignore. Each is
/// compiled (with tests/corpus/support and tests/expected/support, which declares the attributes)
/// in runtime-async form and rewritten by Async2, and must print the transcript stated
/// beside it in <c>&lt;name&gt;.expected</c> (written from seed 002, not from a run). Its classic
/// build must print something else, so that every program shows the difference it is about.
/// </summary>
[Trait("Category", "Slow")]
public sealed class ExpectedTranscriptTests(ITestOutputHelper output)
{
    public static TheoryData<string> Programs()
    {
        var data = new TheoryData<string>();
        foreach (var file in Directory.GetFiles(TestEnvironment.ExpectedFolder, "*.cs").Order(StringComparer.Ordinal))
            data.Add(Path.GetFileNameWithoutExtension(file));
        return data;
    }

    [Theory]
    [MemberData(nameof(Programs))]
    public void Rewritten_program_prints_its_stated_transcript(string program)
    {
        var source = Path.Combine(TestEnvironment.ExpectedFolder, program + ".cs");
        var expected = File.ReadAllText(Path.ChangeExtension(source, ".expected")).ReplaceLineEndings("\n").TrimEnd();
        var support = Directory.GetFiles(Path.Combine(TestEnvironment.ExpectedFolder, "support"), "*.cs").Order(StringComparer.Ordinal);
        var build = ProgramBuilder.Build(program, [source, .. TestEnvironment.CorpusSupportFiles, .. support]);

        var rewritten = ProgramRunner.Transcript(build.Rewritten, runtimeAsync: false).TrimEnd();
        output.WriteLine($"expected:\n{expected}\n(c) rewritten:\n{rewritten}");
        Assert.Equal(expected, rewritten);
        Assert.All(build.Report.Methods, m => Assert.True(m.Rewritten, $"{m.Method} was left classic: {m.Reason}"));

        var classic = ProgramRunner.Transcript(build.Classic, runtimeAsync: false).TrimEnd();
        output.WriteLine($"(a) classic:\n{classic}");
        Assert.NotEqual(expected, classic);
    }
}
