using Async2.Tests.Corpus;
using Xunit;
using Xunit.Abstractions;

namespace Async2.Tests.Packages;

/// <summary>
/// Corpus programs whose dispatch decisions are made at run time (virtual and interface calls that
/// mix rewritten and classic overrides), built with Async2.Build from source and published with
/// NativeAOT: the compiled app must print what classic async prints. NativeAOT keeps no reflection
/// metadata that nothing asks for, so a decision that read it would silently go wrong only here.
/// </summary>
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

        var project = Path.Combine(Path.GetTempPath(), $"async2-aot-{program}-{Guid.NewGuid():N}");
        try
        {
            Directory.CreateDirectory(project);
            foreach (var source in sources)
                File.Copy(source, Path.Combine(project, Path.GetFileName(source)));
            File.WriteAllText(Path.Combine(project, program + ".csproj"), $"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <OutputType>Exe</OutputType>
                    <TargetFramework>net10.0</TargetFramework>
                    <Nullable>enable</Nullable>
                    <Async2Enabled>true</Async2Enabled>
                    <PublishAot>true</PublishAot>
                  </PropertyGroup>
                  <Import Project="{Path.Combine(TestEnvironment.RepositoryRoot, "build", "Async2.targets")}" />
                </Project>
                """);
            var publish = ProgramRunner.RunDotnet(["publish", project, "-c", TestEnvironment.Configuration, "-o", Path.Combine(project, "aot"),
                "-nodeReuse:false", "-p:UseSharedCompilation=false"], runtimeAsync: false, TimeSpan.FromMinutes(10));
            Assert.True(publish.ExitCode == 0, $"publish failed:\n{publish.Stdout}\n{publish.Stderr}");

            var native = Path.Combine(project, "aot", program);
            var run = ProgramRunner.Run(native, []);
            var transcript = run.Stdout.ReplaceLineEndings("\n") + $"[exit code {run.ExitCode}]";
            if (run.ExitCode != 0 && run.Stderr.Length > 0)
                transcript += $"\n[stderr first line] {run.Stderr.ReplaceLineEndings("\n").Split('\n')[0]}";
            output.WriteLine($"(a) classic:\n{classic}\n(c) Async2, NativeAOT:\n{transcript}");
            Assert.Equal(classic, transcript);
        }
        finally
        {
            Directory.Delete(project, recursive: true);
        }
    }
}
