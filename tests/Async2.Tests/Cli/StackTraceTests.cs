using System.Text.RegularExpressions;
using Async2.Tests.Corpus;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// An exception thrown after a suspension shows its logical async frames in ToString(): original
/// method names and parameters with file and line, innermost first, and nothing of the dispatcher
/// in between. That includes the frames the dispatcher passes the exception through without
/// resuming them one by one (no handler at their await): by default it rethrows through them
/// together (PassThroughFrames.cs), so the rewritten trace is classic's, line for line.
/// The AppContext switch Async2.CompleteStackTraces=false leaves those frames out, as .NET 10's
/// runtime async does. On .NET 11 the rewritten trace is classic's there too, and .NET 11's own
/// runtime async keeps those frames as well.
/// </summary>
public sealed partial class StackTraceTests
{
    private static readonly Lazy<ProgramBuild> s_build = new(() =>
        ProgramBuilder.Build("StackTrace", [Path.Combine(TestEnvironment.FixturesFolder, "StackTrace.cs"), .. TestEnvironment.CorpusSupportFiles]));

    // Each build's output, run once for all the tests that read it (the programs are deterministic).
    private static readonly Lazy<string> s_classicOutput = new(() => Run(s_build.Value.Classic));
    private static readonly Lazy<string> s_rewrittenOutput = new(() => Run(s_build.Value.Rewritten));
    private static readonly Lazy<string> s_classicOn11 = new(() => Run(s_build.Value.Classic, Net11.Root));
    private static readonly Lazy<string> s_rewrittenOn11 = new(() => Run(s_build.Value.Rewritten, Net11.Root));

    [Fact]
    public void Rewritten_program_prints_classic_traces_character_for_character()
    {
        Assert.Equal(s_classicOutput.Value, s_rewrittenOutput.Value);
    }

    [Net11Fact]
    public void On_net11_rewritten_program_prints_classic_traces_character_for_character()
    {
        Assert.Equal(s_classicOn11.Value, s_rewrittenOn11.Value);
        Assert.Equal(151, Traces(s_rewrittenOn11.Value)[1].Count(f => f.Method == "Recurse"));
    }

    /// <summary>
    /// .NET 11's runtime async keeps the frames an exception passes through, as Async2 does (.NET 10's
    /// leaves them out): it is the bar for Throw Suspend with complete traces (bench/README.md).
    /// </summary>
    [Net11Fact]
    public void On_net11_its_own_runtime_async_lists_the_frames_passed_through_as_the_rewrite_does()
    {
        var runtimeAsync = Traces(Run(s_build.Value.RuntimeAsync, Net11.Root));
        var rewritten = Traces(s_rewrittenOn11.Value);

        Assert.Equal(["Inner", "Middle", "Scoped", "Outer", "Main"], runtimeAsync[0].Select(f => f.Method));
        Assert.Equal(rewritten[0].Select(f => f.Method), runtimeAsync[0].Select(f => f.Method));
        Assert.Equal(rewritten[1].Count(f => f.Method == "Recurse"), runtimeAsync[1].Count(f => f.Method == "Recurse"));
    }

    /// <param name="trace">Which of the fixture's printed traces.</param>
    /// <param name="classicFrames">The frames classic async shows, which the rewritten trace must show on the same lines.</param>
    [Theory]
    [InlineData(0, "Inner Middle Scoped Outer Main")]
    [InlineData(2, "Inner Middle Main")]
    [InlineData(3, "ThrowsAtOnce Main")]
    [InlineData(4, "ClassicSquare.Area Measure Main")]
    [InlineData(6, "ThrowsKeptLocal Main")]
    [InlineData(7, "ThrowsKeptLocalAfterDelay Main")]
    public void Rewritten_trace_lists_the_classic_frames_on_the_same_lines(int trace, string classicFrames)
    {
        var classic = Traces(s_classicOutput.Value);
        var rewritten = Traces(s_rewrittenOutput.Value);

        Assert.Equal(classicFrames.Split(' '), classic[trace].Select(f => f.Method));
        Assert.Equal(classic[trace], rewritten[trace]);
    }

    [Fact]
    public void Trace_through_more_frames_than_one_pass_through_run_is_complete()
    {
        var classic = Traces(s_classicOutput.Value);
        var rewritten = Traces(s_rewrittenOutput.Value);

        Assert.Equal(151, classic[1].Count(f => f.Method == "Recurse"));
        Assert.Equal(classic[1], rewritten[1]);
    }

    /// <summary>
    /// A frame the exception passes through costs the unwinding of one stack frame
    /// (Continuation.PassFaultThrough), not two (Resume and the variant): besides the one per
    /// Recurse frame the trace lists, only the innermost frame's Resume, which the dispatcher called.
    /// </summary>
    [Fact]
    public void Each_frame_passed_through_is_one_stack_frame_to_unwind()
    {
        var listed = Traces(s_rewrittenOutput.Value)[1].Count(f => f.Method == "Recurse");
        var (exitCode, stdout, stderr) = ProgramRunner.RunDotnet([s_build.Value.Rewritten, "unwound-frames"], runtimeAsync: false);
        Assert.True(exitCode == 0, $"exit code {exitCode}\n{stdout}{stderr}");

        var unwound = int.Parse(Regex.Match(stdout, @"stack frames of Recurse unwound: (\d+)").Groups[1].Value);
        Assert.Equal(151, listed);
        Assert.InRange(unwound, listed, listed + 1);
    }

    [Fact]
    public void Trace_has_no_dispatcher_frames_or_separators()
    {
        var output = s_rewrittenOutput.Value;

        Assert.Contains("boom", output);
        Assert.DoesNotContain("Async2.Runtime", output);
        Assert.DoesNotContain("--- End of stack trace", output);
    }

    [Fact]
    public void Switch_off_leaves_pass_through_frames_out()
    {
        var build = s_build.Value;
        var runtimeConfig = Path.Combine(Path.GetDirectoryName(build.Rewritten)!, "StackTrace.skip-frames.runtimeconfig.json");
        File.WriteAllText(runtimeConfig, """
            {
              "runtimeOptions": {
                "tfm": "net10.0",
                "framework": { "name": "Microsoft.NETCore.App", "version": "10.0.0" },
                "configProperties": { "Async2.CompleteStackTraces": false }
              }
            }
            """);
        var output = ProgramRunner.RunDotnet(["exec", "--runtimeconfig", runtimeConfig, build.Rewritten], runtimeAsync: false).Stdout;
        var traces = Traces(output);

        Assert.Equal(["Inner", "Outer", "Main"], traces[0].Select(f => f.Method));
        Assert.Equal(["Recurse", "Main"], traces[1].Select(f => f.Method));
        Assert.Equal(["Inner", "Main"], traces[2].Select(f => f.Method));
        Assert.Equal(["ClassicSquare.Area", "Main"], traces[4].Select(f => f.Method));
        Assert.Contains("finally in Outer", output);
    }

    private static string Run(string assembly, Async2.Cli.Runtimes.RuntimeRoot? runtime = null)
    {
        var (exitCode, stdout, stderr) = ProgramRunner.RunDotnet([assembly], runtimeAsync: false, runtime: runtime);
        Assert.True(exitCode == 0, $"exit code {exitCode}\n{stdout}{stderr}");
        return stdout;
    }

    /// <summary>Each printed trace (separated by "----") as its frames: method name and file:line.</summary>
    private static List<List<(string Method, string Location)>> Traces(string output) =>
        output.ReplaceLineEndings("\n").Split("----\n")
            .Select(trace => FrameLine().Matches(trace).Select(m => (m.Groups["method"].Value, m.Groups["location"].Value)).ToList())
            .ToList();

    [GeneratedRegex(@"^\s+at (?:Program\.)?(?<method>[^\s(]+)\(.*?\)(?: in .*?(?<location>StackTrace\.cs:line \d+))?\s*$", RegexOptions.Multiline)]
    private static partial Regex FrameLine();
}
