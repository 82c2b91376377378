using Async2.Tests.Corpus;
using Xunit;
using Xunit.Abstractions;

namespace Async2.Tests.Packages;

/// <summary>
/// Corpus programs whose dispatch decisions are made at run time (virtual and interface calls that
/// mix rewritten and classic overrides), built with Async2.Build from source and published with
/// NativeAOT: the compiled app must print what classic async prints. NativeAOT keeps no reflection
/// metadata that nothing asks for, so a decision that read it would silently go wrong only here.
/// And a trimmed publish, where a method nothing keeps is dropped with what stack traces read.
/// </summary>
[Trait("Category", "Slow")]
public sealed class NativeAotTests(ITestOutputHelper output)
{
    public static TheoryData<string> Programs() =>
    [
        "virtual_mixed_overrides",
        "virtual_sealed_new",
        "virtual_covariant_returns",
        "virtual_covariant_dispatch",
        "virtual_generic_hierarchy",
        "interfaces_mixed_models",
        "context_foreign_overrides",
    ];

    [Theory]
    [MemberData(nameof(Programs))]
    public void Published_with_NativeAOT_prints_what_classic_prints(string program)
    {
        var sources = new[] { Path.Combine(TestEnvironment.CorpusFolder, program + ".cs") }.Concat(TestEnvironment.CorpusSupportFiles).ToList();
        var classic = ProgramRunner.Transcript(ProgramBuilder.Build(program, sources).Classic, runtimeAsync: false);

        var folder = Path.Combine(Path.GetTempPath(), $"async2-aot-{program}-{Guid.NewGuid():N}");
        try
        {
            var native = Publish(folder, [(program, "Exe", sources)]);
            var transcript = Transcript(native);
            output.WriteLine($"(a) classic:\n{classic}\n(c) Async2, NativeAOT:\n{transcript}");
            Assert.Equal(classic, transcript);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    /// <summary>
    /// tests/corpus-multi/calls_across as two projects (a library and the app referencing it), both
    /// Async2-enabled, published with NativeAOT: the app prints what its classic build prints, and its
    /// calls into the library are direct there too (0 bytes per call, the program's own count).
    /// </summary>
    [Fact]
    public void Calls_across_assemblies_published_with_NativeAOT_are_direct_and_print_what_classic_prints()
    {
        const string program = "calls_across";
        var classic = ProgramRunner.Transcript(MultiAssemblyBuilder.BuildApp(program, runtimeAsyncFlavour: false), runtimeAsync: false);
        string[] Sources(string assembly) => Directory.GetFiles(Path.Combine(MultiAssemblyBuilder.ProgramsFolder, program, assembly), "*.cs");

        var folder = Path.Combine(Path.GetTempPath(), $"async2-aot-{program}-{Guid.NewGuid():N}");
        try
        {
            var native = Publish(folder, [("Core", "Library", Sources("Core")), ("App", "Exe", Sources("App"))]);
            Assert.Equal(classic, Transcript(native));

            var allocations = ProgramRunner.Run(native, ["allocations"]);
            output.WriteLine(allocations.Stdout);
            Assert.Equal(0, allocations.ExitCode);
            var lines = allocations.Stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries);
            Assert.Equal(6, lines.Length);
            Assert.All(lines, line => Assert.EndsWith(": 0 bytes/call", line.TrimEnd()));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    /// <summary>
    /// A corpus program whose methods' shapes the trimmer's signature parser cannot match
    /// (frames_trimmed_names), published trimmed: the rewriter's [DynamicDependency] on their
    /// variants must keep them, with no IL2037 warning, or their stack-trace lines name the variants.
    /// </summary>
    [Fact]
    public void Published_trimmed_keeps_every_rewritten_method_for_its_stack_trace_lines()
    {
        const string program = "frames_trimmed_names";
        var sources = new[] { Path.Combine(TestEnvironment.CorpusFolder, program + ".cs") }.Concat(TestEnvironment.CorpusSupportFiles).ToList();
        var classic = ProgramRunner.Transcript(ProgramBuilder.Build(program, sources).Classic, runtimeAsync: false);

        var folder = Path.Combine(Path.GetTempPath(), $"async2-trimmed-{program}-{Guid.NewGuid():N}");
        try
        {
            var (trimmed, log) = Publish(folder, [(program, "Exe", sources)],
                ["-p:PublishTrimmed=true", "--self-contained", "-r", System.Runtime.InteropServices.RuntimeInformation.RuntimeIdentifier]);
            var transcript = Transcript(trimmed);
            output.WriteLine($"(a) classic:\n{classic}\n(c) Async2, trimmed:\n{transcript}");
            Assert.DoesNotContain("IL2037", log);
            Assert.Equal(classic, transcript);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    /// <summary>
    /// AsyncStackTrace.Capture() under NativeAOT, where a stack frame does not name its method: the
    /// trace says so instead of coming back empty, as if nothing were awaiting. The publish warns
    /// nothing about Async2's own code: Async2.Runtime needs nothing NativeAOT lacks, and Async2's
    /// build task, built from source beside the app, is not analysed as part of it.
    /// </summary>
    [Fact]
    public void Published_with_NativeAOT_a_logical_stack_says_why_it_lists_no_frames()
    {
        var folder = Path.Combine(Path.GetTempPath(), $"async2-aot-LogicalStack-{Guid.NewGuid():N}");
        try
        {
            var (native, log) = Publish(folder, [("LogicalStack", "Exe", [Path.Combine(TestEnvironment.FixturesFolder, "LogicalStack.cs")])], ["-p:PublishAot=true"]);
            var transcript = Transcript(native);
            output.WriteLine(transcript);
            var source = Path.Combine(TestEnvironment.RepositoryRoot, "src") + Path.DirectorySeparatorChar;
            Assert.Empty(log.Split('\n').Where(line => line.Contains("warning IL", StringComparison.Ordinal) && line.Contains(source, StringComparison.Ordinal)));
            Assert.StartsWith("under NativeAOT stack frames do not name their methods, so the frames without one and the awaiting callers are not listed\n", transcript);
            Assert.EndsWith("depth 2\n[exit code 0]", transcript);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    /// <summary>
    /// Writes one Async2-enabled project per (name, output type, sources), each referencing those
    /// before it, and publishes the last (with NativeAOT unless told otherwise); returns the
    /// published executable and the publish's output.
    /// </summary>
    private static string Publish(string folder, IReadOnlyList<(string Name, string OutputType, IReadOnlyList<string> Sources)> projects) =>
        Publish(folder, projects, ["-p:PublishAot=true"]).Executable;

    private static (string Executable, string Log) Publish(string folder, IReadOnlyList<(string Name, string OutputType, IReadOnlyList<string> Sources)> projects, string[] how)
    {
        var references = new List<string>();
        string project = "";
        foreach (var (name, outputType, sources) in projects)
        {
            var directory = Path.Combine(folder, name);
            Directory.CreateDirectory(directory);
            foreach (var source in sources)
                File.Copy(source, Path.Combine(directory, Path.GetFileName(source)));
            project = Path.Combine(directory, name + ".csproj");
            File.WriteAllText(project, $"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <OutputType>{outputType}</OutputType>
                    <TargetFramework>net10.0</TargetFramework>
                    <Nullable>enable</Nullable>
                    <Async2Enabled>true</Async2Enabled>
                  </PropertyGroup>
                  <ItemGroup>
                {string.Concat(references.Select(r => $"    <ProjectReference Include=\"{r}\" />\n"))}  </ItemGroup>
                  <Import Project="{Path.Combine(TestEnvironment.RepositoryRoot, "build", "Async2.targets")}" />
                </Project>
                """);
            references.Add(project);
        }
        var output = Path.Combine(folder, "published");
        var publish = ProgramRunner.RunDotnet(["publish", project, "-c", TestEnvironment.Configuration, .. how, "-o", output,
            "-nodeReuse:false", "-p:UseSharedCompilation=false"], runtimeAsync: false, TimeSpan.FromMinutes(10));
        Assert.True(publish.ExitCode == 0, $"publish failed:\n{publish.Stdout}\n{publish.Stderr}");
        return (Path.Combine(output, projects[^1].Name), publish.Stdout + publish.Stderr);
    }

    private static string Transcript(string native)
    {
        var run = ProgramRunner.Run(native, []);
        var transcript = run.Stdout.ReplaceLineEndings("\n") + $"[exit code {run.ExitCode}]";
        if (run.ExitCode != 0 && run.Stderr.Length > 0)
            transcript += $"\n[stderr first line] {run.Stderr.ReplaceLineEndings("\n").Split('\n')[0]}";
        return transcript;
    }
}
