using Async2.Cli;
using Async2.Tests.Corpus;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// <c>async2 runtime</c> and <c>async2 run --runtime</c> as a user runs them. The async2 cache
/// (ASYNC2_CACHE) is the tests' scratch folder, where <see cref="Net11"/> lays .NET 11 out, so these
/// runs find it there instead of restoring it again.
/// </summary>
public sealed class RuntimeCommandTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("async2-runtime-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static ProgramBuild Fixture(string name) =>
        ProgramBuilder.Build(name, [Path.Combine(TestEnvironment.FixturesFolder, name + ".cs")]);

    [Net11Fact]
    public void Runtime_11_prints_the_dotnet_root_it_laid_out()
    {
        var (exitCode, stdout, stderr) = Async2(TestEnvironment.Scratch, "runtime", "11");

        Assert.True(exitCode == 0, stderr);
        Assert.Equal(Net11.Root.Folder + "\n", stdout.ReplaceLineEndings("\n"));
        Assert.True(File.Exists(Net11.Root.Host));
    }

    [Net11Fact]
    public void Run_on_runtime_11_prints_what_the_classic_build_prints_there()
    {
        var build = Fixture("RuntimeVersion");

        var (exitCode, stdout, stderr) = Async2(TestEnvironment.Scratch, "run", "--runtime", "11", build.RuntimeAsync);

        Assert.StartsWith($".NET {Net11.Root.Version}\n", stdout.ReplaceLineEndings("\n"));
        Assert.Equal(ProgramRunner.Transcript(build.Classic, runtimeAsync: false, Net11.Root), ProgramRunner.TranscriptOf(exitCode, stdout, stderr));
    }

    [Net11Fact]
    public void Run_on_runtime_11_passes_the_apps_own_options_to_it()
    {
        var app = Fixture("EchoArguments").RuntimeAsync;

        foreach (string[] runtime in (string[][])[["--runtime", "11"], ["--runtime=11"]])
        {
            var (exitCode, stdout, stderr) = Async2(TestEnvironment.Scratch, ["run", .. runtime, app, "-h", "--runtime"]);

            Assert.True(exitCode == 2, stderr);
            Assert.Equal("[-h]\n[--runtime]\n", stdout.ReplaceLineEndings("\n"));
        }
    }

    /// <summary>Needs no .NET 11: offline, NuGet fails too, with its own code (NU1301 instead of NU1102).</summary>
    [Fact]
    public void A_release_the_sources_do_not_serve_fails_with_NuGets_error_and_exit_code_1()
    {
        var app = Fixture("EchoArguments").RuntimeAsync;

        foreach (string[] command in (string[][])[["runtime", "11.0.99"], ["run", "--runtime", "11.0.99", app, "never run"]])
        {
            var (exitCode, stdout, stderr) = Async2(_folder, command);

            Assert.Equal(1, exitCode);
            Assert.Empty(stdout);
            Assert.Contains("error: cannot restore .NET 11.0.99's runtime packs", stderr);
            Assert.Matches(@"why: NU1\d{3}: ", stderr);
            Assert.False(Directory.Exists(Path.Combine(_folder, "runtimes")) && Directory.EnumerateFileSystemEntries(Path.Combine(_folder, "runtimes")).Any(),
                "a failed restore left something in the cache");
        }
    }

    /// <summary>
    /// The .NET 11 tests are skipped only when NuGet cannot serve the packs; a failure of ours to lay
    /// them out (a missing host, an unwritable cache, a bug) must fail them instead.
    /// </summary>
    [Fact]
    public void Only_a_package_NuGet_cannot_serve_skips_the_net11_tests()
    {
        static Exception Restore(string why) => CliException.Failure("cannot restore .NET 11.0.0's runtime packs.", why, "check your sources");

        Assert.True(Net11.IsUnavailable(Restore("NU1101: Unable to find package Microsoft.NETCore.App.Runtime.linux-x64")));
        Assert.True(Net11.IsUnavailable(Restore("NU1102: Unable to find package Microsoft.NETCore.App.Runtime.linux-x64 with version (= 11.0.0)")));
        Assert.True(Net11.IsUnavailable(Restore("NU1301: Unable to load the service index for source https://api.nuget.org/v3/index.json.")));
        Assert.False(Net11.IsUnavailable(Restore("NU1105: Unable to read project information")));
        Assert.False(Net11.IsUnavailable(CliException.Failure("cannot lay out .NET 11.0.0.", "no dotnet host beside the running runtime", "run async2 with the SDK's dotnet")));
        Assert.False(Net11.IsUnavailable(new IOException("NU1102 in a message that is not NuGet's")));
    }

    private static (int ExitCode, string Stdout, string Stderr) Async2(string cache, params string[] args) =>
        ProgramRunner.RunDotnet([TestEnvironment.CliPath, .. args], runtimeAsync: false, TimeSpan.FromMinutes(5),
            new Dictionary<string, string?> { ["ASYNC2_CACHE"] = cache });
}
