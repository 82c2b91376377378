using Async2.Rewriter;
using Async2.Tests.Corpus;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// <c>Async2.Runtime.AsyncStackTrace</c>: captured in a method resumed after suspensions, it lists
/// the frame on the thread's stack and then the three callers awaiting it, each at the line of its
/// await, and ends where the chain meets a Task (Main's, awaited by the host).
/// </summary>
public sealed class LogicalStackTraceTests
{
    [Fact]
    public void Capture_after_suspensions_lists_the_awaiting_callers_with_their_lines()
    {
        var runtime = typeof(Async2.Runtime.Continuation).Assembly.Location;
        var source = Path.Combine(TestEnvironment.FixturesFolder, "LogicalStack.cs");
        var compiled = ProgramBuilder.Compile("LogicalStack", [source], runtimeAsync: true, references: [runtime]);
        var rewritten = Path.Combine(Directory.CreateTempSubdirectory("async2-logical-stack-").FullName, "LogicalStack.dll");
        AssemblyRewriter.Rewrite(new RewriteRequest(compiled, rewritten));
        File.Copy(ProgramBuilder.RuntimeConfigOf(compiled), ProgramBuilder.RuntimeConfigOf(rewritten));

        var transcript = ProgramRunner.Transcript(rewritten, runtimeAsync: false);

        Assert.StartsWith("""
            Program.Inner LogicalStack.cs:32 running
            Program.Middle LogicalStack.cs:25 awaiting
            Program.Outer LogicalStack.cs:19 awaiting
            Program.Main LogicalStack.cs:12 awaiting
            awaited as a Task: its awaiters are not known
               at Program.Inner(Int32 depth) in 
            """.ReplaceLineEndings("\n"), transcript);
        Assert.Contains("LogicalStack.cs:line 25 (awaiting)\n", transcript);
        Assert.Contains("   --- awaited as a Task: its awaiters are not known ---\ndepth 2\n[exit code 0]", transcript);
    }

    [Fact]
    public void Without_the_switch_the_trace_says_why_the_callers_are_missing()
    {
        var runtime = typeof(Async2.Runtime.Continuation).Assembly.Location;
        var compiled = ProgramBuilder.Compile("LogicalStack", [Path.Combine(TestEnvironment.FixturesFolder, "LogicalStack.cs")], runtimeAsync: true, references: [runtime]);
        var rewritten = Path.Combine(Directory.CreateTempSubdirectory("async2-logical-stack-").FullName, "LogicalStack.dll");
        AssemblyRewriter.Rewrite(new RewriteRequest(compiled, rewritten));
        File.Copy(ProgramBuilder.RuntimeConfigOf(compiled), ProgramBuilder.RuntimeConfigOf(rewritten));

        var (exitCode, stdout, _) = ProgramRunner.Run(TestEnvironment.DotnetHost, [rewritten], environment: new Dictionary<string, string?> { ["LOGICAL_STACKS"] = "off" });

        Assert.Equal(0, exitCode);
        Assert.StartsWith("""
            Program.Inner LogicalStack.cs:32 running
            awaiting callers are listed only with the AppContext switch Async2.LogicalStackTraces on
            """.ReplaceLineEndings("\n"), stdout.ReplaceLineEndings("\n"));
    }
}
