using Async2.Rewriter;
using Async2.Tests.Corpus;
using Xunit;
using Xunit.Abstractions;
using static Async2.Tests.Cli.CliRun;

namespace Async2.Tests.Cli;

/// <summary>
/// <c>async2 verify</c> on apps that need more than Microsoft.NETCore.App: Fixtures/MinimalWebApp.cs,
/// an ASP.NET Core app built classic and runtime-async and rewritten, is verified against the shared
/// frameworks its runtimeconfig.json names, as the host would run it; a library, which has no
/// runtimeconfig.json, against the frameworks given with --reference. Before, verify looked only
/// beside the assembly and in Microsoft.NETCore.App, and refused every method touching ASP.NET Core
/// (FileNotFoundException), classic build and rewritten alike.
/// </summary>
public sealed class VerifyTests(ITestOutputHelper output) : IDisposable
{
    private const string AspNetCore = "Microsoft.AspNetCore.App";
    private readonly string _folder = Directory.CreateTempSubdirectory("async2-verify-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    /// <summary>What the Web SDK writes: both frameworks.</summary>
    private const string WebSdkRuntimeConfig =
        $$"""{ "runtimeOptions": { "tfm": "net10.0", "frameworks": [ { "name": "Microsoft.NETCore.App", "version": "10.0.0" }, { "name": "{{AspNetCore}}", "version": "10.0.0" } ] } }""";

    /// <summary>ASP.NET Core alone, which brings Microsoft.NETCore.App with it.</summary>
    private const string AspNetCoreOnlyRuntimeConfig = $$"""{ "runtimeOptions": { "tfm": "net10.0", "framework": { "name": "{{AspNetCore}}", "version": "10.0.0" } } }""";

    public static TheoryData<string> RuntimeConfigs() => new() { WebSdkRuntimeConfig, AspNetCoreOnlyRuntimeConfig };

    [Theory]
    [MemberData(nameof(RuntimeConfigs))]
    public void Verify_compiles_every_method_of_a_web_app_against_the_frameworks_its_runtimeconfig_names(string runtimeConfig)
    {
        var (classic, rewritten) = WebApp(runtimeConfig);

        foreach (var app in new[] { classic, rewritten })
        {
            var (exitCode, stdout, stderr) = RunAsync2("verify", app);
            output.WriteLine(stdout + stderr);

            Assert.Equal("", stderr);
            Assert.Equal(0, exitCode);
            Assert.Matches(@": \d+ method\(s\) compiled, 0 refused", stdout);
        }
    }

    [Fact]
    public void Rewritten_web_app_serves_what_its_classic_build_serves()
    {
        var (classic, rewritten) = WebApp(WebSdkRuntimeConfig);

        var classicRun = ProgramRunner.Run(TestEnvironment.DotnetHost, [classic], timeout: TimeSpan.FromMinutes(2));
        var rewrittenRun = ProgramRunner.Run(TestEnvironment.DotnetHost, [rewritten], timeout: TimeSpan.FromMinutes(2));
        output.WriteLine($"classic:\n{classicRun.Stdout}{classicRun.Stderr}\nAsync2:\n{rewrittenRun.Stdout}{rewrittenRun.Stderr}");

        Assert.Equal(0, rewrittenRun.ExitCode);
        Assert.Equal("""
            /quote/7: 200 [minimal] '7 x 2.5 = 17.5'
            /quote/21: 200 [minimal] '21 x 1.5 = 31.5'
            /fail: 500 [] ''

            """.ReplaceLineEndings("\n"), rewrittenRun.Stdout.ReplaceLineEndings("\n"));
        Assert.Equal(classicRun.Stdout, rewrittenRun.Stdout);
    }

    [Fact]
    public void Verify_of_a_library_finds_a_framework_given_with_reference()
    {
        // A library has no runtimeconfig.json to name ASP.NET Core: without --reference its methods
        // that use it are refused, and the message says what to pass.
        var library = Path.Combine(_folder, "library", "Endpoints.dll");
        Directory.CreateDirectory(Path.GetDirectoryName(library)!);
        File.Copy(ProgramBuilder.Compile("Endpoints", [Write("Endpoints.cs", """
            using Microsoft.AspNetCore.Builder;
            using Microsoft.AspNetCore.Routing;
            public static class Endpoints
            {
                public static void Map(IEndpointRouteBuilder routes) => routes.MapGet("/", async () => { await System.Threading.Tasks.Task.Yield(); return "hi"; });
            }
            """)], runtimeAsync: false, references: AspNetCoreReferences, library: true), library);
        var framework = InstalledAspNetCore();

        var alone = RunAsync2("verify", library);
        var referenced = RunAsync2("verify", library, "-r", framework);
        output.WriteLine(alone.Stdout + alone.Stderr + referenced.Stdout + referenced.Stderr);

        Assert.Equal(1, alone.ExitCode);
        Assert.Contains("error ASYNC2201: Endpoints::Map: FileNotFoundException: Could not load file or assembly 'Microsoft.AspNetCore", alone.Stderr);
        Assert.Contains("pass that assembly or its folder with --reference", alone.Stderr);
        Assert.Equal("", referenced.Stderr);
        Assert.Equal(0, referenced.ExitCode);
        Assert.Matches(@": \d+ method\(s\) compiled, 0 refused", referenced.Stdout);
    }

    [Fact]
    public void Verify_compiles_against_the_runtimes_copy_of_a_framework_assembly_that_lies_beside_the_input_at_no_newer_version()
    {
        // Verifying from a folder of rewritten framework assemblies: verify loaded the folder's copy
        // of one (System.Text.Json here) into its own context while the framework's assemblies that use it
        // kept theirs, and refused the input's calls passing its types between them (MissingMethodException;
        // found by a hunt that rewrote .NET 11's framework). The host would run the app on the framework's copy.
        var folder = Path.Combine(_folder, "beside");
        var library = Path.Combine(folder, "JsonCalls.dll");
        Directory.CreateDirectory(folder);
        File.Copy(ProgramBuilder.Compile("JsonCalls", [Write("JsonCalls.cs", """
            using System.Net.Http.Json;
            using System.Text.Json;
            public static class JsonCalls
            {
                public static JsonContent Content(int value) => JsonContent.Create(value, options: new JsonSerializerOptions());
            }
            """)], runtimeAsync: false, library: true), library);
        File.Copy(typeof(System.Text.Json.JsonSerializer).Assembly.Location, Path.Combine(folder, "System.Text.Json.dll"));

        var (exitCode, stdout, stderr) = RunAsync2("verify", library);
        output.WriteLine(stdout + stderr);

        Assert.Equal("", stderr);
        Assert.Equal(0, exitCode);
        Assert.Contains(": 1 method(s) compiled, 0 refused", stdout);
    }

    [Fact]
    public void Verify_of_an_app_whose_framework_is_not_installed_says_which_and_what_to_do()
    {
        var (classic, _) = WebApp($$"""{ "runtimeOptions": { "frameworks": [ { "name": "{{AspNetCore}}", "version": "99.0.0" } ] } }""");

        var (exitCode, stdout, stderr) = RunAsync2("verify", classic);

        Assert.Equal(1, exitCode);
        Assert.Contains($"error ASYNC2004: {ProgramBuilder.RuntimeConfigOf(classic)}: it names the shared framework {AspNetCore} 99.0.0 (roll forward: Minor)", stderr);
        Assert.Contains($"Install the {AspNetCore} runtime the app was built for, or pass the folder of that framework's assemblies with --reference.", stderr);
        Assert.DoesNotContain("   at ", stderr + stdout);
    }

    [Fact]
    public void Verify_of_an_app_whose_runtimeconfig_is_not_json_says_so()
    {
        var (classic, _) = WebApp("{ \"runtimeOptions\": ");

        var (exitCode, stdout, stderr) = RunAsync2("verify", classic);

        Assert.Equal(1, exitCode);
        Assert.Contains($"error ASYNC2001: {ProgramBuilder.RuntimeConfigOf(classic)}: the app's runtimeconfig.json cannot be read as one", stderr);
        Assert.DoesNotContain("   at ", stderr + stdout);
    }

    /// <summary>Installed versions a host could pick from, and what it picks for 10.0.0 under each roll-forward policy.</summary>
    [Theory]
    [InlineData("Minor", "10.0.12")] // the newest patch of the requested minor
    [InlineData("LatestPatch", "10.0.12")]
    [InlineData("LatestMinor", "10.2.1")]
    [InlineData("Major", "10.0.12")]
    [InlineData("LatestMajor", "11.0.2")]
    [InlineData("Disable", null)] // no 10.0.0 itself
    public void Framework_version_is_chosen_as_the_host_chooses(string rollForward, string? expected)
    {
        string[] installed = ["9.0.9", "10.0.3", "10.0.12", "10.0.13-rc.1", "10.1.4", "10.2.1", "11.0.2"];

        Assert.Equal(expected, SharedFrameworks.Choose(new FrameworkReference(AspNetCore, "10.0.0", rollForward), installed.Select(v => (v, v))));
    }

    [Theory]
    [InlineData("Minor", "10.1.4", "10.1.4")] // the lowest newer minor when the requested one is missing, at its newest patch
    [InlineData("Minor", "10.1.2,10.1.4,10.2.0", "10.1.4")]
    [InlineData("Minor", "9.0.9,11.0.2", null)] // never an older version, nor another major
    [InlineData("LatestPatch", "10.1.4", null)]
    [InlineData("Major", "9.0.9,11.0.2,11.1.0,12.0.0", "11.0.2")]
    [InlineData("Minor", "10.0.1-rc.1", null)] // never a prerelease for a release
    public void Framework_version_rolls_forward_only_as_far_as_the_host_would(string rollForward, string installed, string? expected) =>
        Assert.Equal(expected, SharedFrameworks.Choose(new FrameworkReference(AspNetCore, "10.0.0", rollForward), installed.Split(',').Select(v => (v, v))));

    /// <summary>
    /// The web app built classic and runtime-async (then rewritten by <c>async2 rewrite</c>), each in
    /// a folder of its own with <paramref name="runtimeConfig"/> as its runtimeconfig.json: the
    /// folders as a build leaves them, without ASP.NET Core's assemblies.
    /// </summary>
    private (string Classic, string Rewritten) WebApp(string runtimeConfig)
    {
        string[] sources = [Path.Combine(TestEnvironment.FixturesFolder, "MinimalWebApp.cs")];
        var classic = Beside(ProgramBuilder.Compile("MinimalWebApp", sources, runtimeAsync: false, references: AspNetCoreReferences), "classic");
        var runtimeAsync = Beside(ProgramBuilder.Compile("MinimalWebApp", sources, runtimeAsync: true, references: AspNetCoreReferences), "runtime-async");
        var rewritten = Path.Combine(_folder, "rewritten", Path.GetFileName(runtimeAsync));
        var rewrite = RunAsync2("rewrite", runtimeAsync, "-o", rewritten);
        Assert.True(rewrite.ExitCode == 0, rewrite.Stderr);
        foreach (var app in new[] { classic, rewritten })
            File.WriteAllText(ProgramBuilder.RuntimeConfigOf(app), runtimeConfig);
        return (classic, rewritten);
    }

    /// <summary>A copy of a compiled program and its PDB in a folder of its own under the test's folder.</summary>
    private string Beside(string program, string folderName)
    {
        var folder = Path.Combine(_folder, folderName);
        Directory.CreateDirectory(folder);
        foreach (var file in new[] { program, Path.ChangeExtension(program, ".pdb") })
            File.Copy(file, Path.Combine(folder, Path.GetFileName(file)));
        return Path.Combine(folder, Path.GetFileName(program));
    }

    private static IReadOnlyList<string> AspNetCoreReferences =>
        Async2.TestSupport.SdkTools.ReferenceAssemblies(TestEnvironment.DotnetRoot, "Microsoft.AspNetCore.App.Ref");

    /// <summary>The newest installed ASP.NET Core shared framework's folder, as a user would pass it with --reference.</summary>
    private static string InstalledAspNetCore() =>
        Directory.EnumerateDirectories(Path.Combine(TestEnvironment.DotnetRoot, "shared", AspNetCore)).Order(StringComparer.Ordinal).Last();

    private string Write(string name, string source)
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllText(path, source);
        return path;
    }
}
