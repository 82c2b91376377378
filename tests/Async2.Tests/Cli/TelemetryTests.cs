using Async2.Tests.Corpus;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// The meter and the event source count what a program does: Fixtures/Telemetry.cs suspends its
/// chain ten times (a Task.Yield in a loop, two frames deep under Main) and listens in-process,
/// after warm-up suspensions, the first of which is a second or more before the one that has Async2
/// create them on the thread pool: the first meter or event source of a process costs 10 to 15 ms,
/// which a program's first awaits must not wait for. The counts are the same on .NET 11.
/// </summary>
public sealed class TelemetryTests
{
    [Fact]
    public void Meter_and_events_count_the_suspensions_the_program_performs() => AssertCounts(runtime: null);

    [Net11Fact]
    public void On_net11_meter_and_events_count_the_suspensions_the_program_performs() => AssertCounts(Net11.Root);

    private static void AssertCounts(Async2.Cli.Runtimes.RuntimeRoot? runtime)
    {
        var build = ProgramBuilder.Build("Telemetry", [Path.Combine(TestEnvironment.FixturesFolder, "Telemetry.cs")]);

        var transcript = ProgramRunner.Transcript(build.Rewritten, runtimeAsync: false, runtime);

        // Ten suspensions; the first suspends Step, Work and Main (3 frames), the nine others Step
        // and the resumed Work again (2 each; Main waits on behind them): 21 frames. Main's own
        // Task.Delay adds one suspension of one frame.
        Assert.Equal("""
            meter or event source created after the first suspension: False
            meter and event source created on the first suspension's thread: False
            async2.frames.suspended = 22
            async2.resumptions = 11
            async2.suspensions = 11
            events: 11 suspensions, 11 resumptions
              Program.Step (3 frames) x1
              Program.Step (2 frames) x9
              Program.Main (1 frames) x1
            [exit code 0]
            """.ReplaceLineEndings("\n"), transcript);
    }

    /// <summary>
    /// End to end, out of process: dotnet-trace (the .NET tool, installed from the package source
    /// into a scratch folder) starts the program with the "Async2" provider enabled. The events'
    /// payloads are counted in the .nettrace file as the UTF-16 strings EventPipe writes them as:
    /// each suspension and each resumption names its method once.
    /// </summary>
    [Fact]
    [Trait("Category", "Slow")] // installs dotnet-trace from the package source
    public void Dotnet_trace_collects_the_events_of_a_running_program()
    {
        var build = ProgramBuilder.Build("Telemetry", [Path.Combine(TestEnvironment.FixturesFolder, "Telemetry.cs")]);
        var folder = Directory.CreateTempSubdirectory("async2-trace-").FullName;
        try
        {
            var tools = Path.Combine(folder, "tools");
            var install = ProgramRunner.RunDotnet(["tool", "install", "dotnet-trace", "--version", "10.0.750501", "--tool-path", tools], runtimeAsync: false, TimeSpan.FromMinutes(5));
            Assert.True(install.ExitCode == 0, $"dotnet-trace could not be installed: {install.Stdout}{install.Stderr}");
            var trace = Path.Combine(folder, "async2.nettrace");

            var collect = ProgramRunner.Run(Path.Combine(tools, "dotnet-trace"),
                ["collect", "--providers", "Async2", "-o", trace, "--show-child-io", "--", TestEnvironment.DotnetHost, build.Rewritten], timeout: TimeSpan.FromMinutes(2));

            Assert.True(collect.ExitCode == 0, $"{collect.Stdout}{collect.Stderr}");
            Assert.Contains("async2.suspensions = 11", collect.Stdout);
            var bytes = File.ReadAllBytes(trace);
            int Count(string text) => CountOf(bytes, System.Text.Encoding.Unicode.GetBytes(text));
            Assert.True(Count("Suspension") > 0 && Count("Resumption") > 0, "the trace has no Async2 event metadata");
            Assert.Equal(20, Count("Program.Step")); // 10 suspensions + 10 resumptions
            Assert.Equal(2, Count("Program.Main"));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static int CountOf(byte[] haystack, byte[] needle)
    {
        int count = 0;
        for (int start = 0, found; (found = haystack.AsSpan(start).IndexOf(needle)) >= 0; start += found + needle.Length)
            count++;
        return count;
    }
}
