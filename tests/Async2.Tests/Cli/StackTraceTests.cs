using System.Text.RegularExpressions;
using Async2.Tests.Corpus;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// An exception thrown after a suspension shows its logical async frames in ToString(): original
/// method names with file and line, innermost first, and nothing of the dispatcher in between.
/// Frames that had no handler at their suspension point are skipped by design (the exception
/// goes straight to the next frame that can catch it, seed 002), so the rewritten trace is the
/// classic one with those frames left out: every frame it shows is a classic frame, in order,
/// on the same line.
/// </summary>
public sealed partial class StackTraceTests
{
    [Fact]
    public void Rewritten_trace_is_the_classic_trace_without_skipped_frames()
    {
        var build = ProgramBuilder.Build("StackTrace", [Path.Combine(TestEnvironment.FixturesFolder, "StackTrace.cs")]);
        var classic = Frames(ProgramRunner.RunDotnet([build.Classic], runtimeAsync: false).Stdout);
        var rewrittenOutput = ProgramRunner.RunDotnet([build.Rewritten], runtimeAsync: false).Stdout;
        var rewritten = Frames(rewrittenOutput);

        Assert.Equal(["Inner", "Middle", "Outer", "Main"], classic.Select(f => f.Method));
        Assert.Equal("Inner", rewritten[0].Method);
        Assert.Equal("Main", rewritten[^1].Method);
        int next = 0;
        foreach (var frame in rewritten)
        {
            int match = classic.FindIndex(next, f => f.Method == frame.Method);
            Assert.True(match >= 0, $"frame {frame.Method} is not a classic frame (or out of order):\n{rewrittenOutput}");
            Assert.Equal(classic[match].Location, frame.Location);
            next = match + 1;
        }
        Assert.DoesNotContain("Async2.Runtime", rewrittenOutput);
        Assert.DoesNotContain("--- End of stack trace", rewrittenOutput);
    }

    private static List<(string Method, string Location)> Frames(string output) =>
        FrameLine().Matches(output).Select(m => (m.Groups["method"].Value, m.Groups["location"].Value)).ToList();

    [GeneratedRegex(@"^\s+at (?:Program\.)?(?<method>[^\s(]+)\(.*?\)(?: in .*?(?<location>StackTrace\.cs:line \d+))?\s*$", RegexOptions.Multiline)]
    private static partial Regex FrameLine();
}
