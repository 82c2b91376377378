using System.IO.Compression;
using System.Net;
using System.Text.RegularExpressions;
using System.Xml.Linq;
using Async2.Cli;
using Async2.Cli.Runtimes;
using Async2.Tests.Corpus;
using Xunit;

namespace Async2.Tests.Packages;

/// <summary>
/// One package for every runtime: samples/Portable packed with Async2 into the workspace's feed and
/// used, unchanged, by a classic app on .NET 10 and rolled forward onto .NET 11, by the same app
/// published with NativeAOT, and by samples/BlazorApp on Mono in headless Chromium. Each prints
/// the transcript of the classic build of the same source (in samples-classic, where the consumers
/// reference the library's project instead of its package and build with -p:Async2Enabled=false).
/// </summary>
public sealed partial class PackagesTests
{
    private const string PortablePackage = """<PackageReference Include="Samples.Portable" Version="1.0.0" />""";

    [Fact]
    public void A_Blazor_WebAssembly_app_built_with_Async2_renders_in_Chromium_what_its_classic_build_renders()
    {
        var async2 = RenderBlazorApp(workspace.Samples, "blazor");
        var classic = RenderBlazorApp(workspace.ClassicSamples, "blazor-classic", "-p:Async2Enabled=false");
        output.WriteLine($"classic:\n{classic}\nAsync2:\n{async2}");

        Assert.False(classic.ErrorShown);
        Assert.Contains("<p id=\"done\">done</p>", classic.App);
        Assert.Equal(classic, async2);
        AssertRewritten(Path.Combine(workspace.Samples, "BlazorApp", "obj", Configuration, "net10.0"), ["BlazorApp.dll"], runtimeBeside: false);
    }

    [LongModeFact]
    public void Compiled_runtime_async_without_Async2_the_Blazor_app_fails_on_Mono()
    {
        // What Async2 is for in the browser: the same source, compiled runtime-async and left so,
        // stops Mono at its first async method (a whole publish more, so in the long mode only).
        var page = RenderBlazorApp(workspace.ClassicSamples, "blazor-runtime-async", "-p:Async2Enabled=false", "-p:Features=runtime-async=on",
            "-p:NoWarn=SYSLIB5007%3BCA2252", "-p:PublishTrimmed=false", "-p:IntermediateOutputPath=obj/runtime-async/", "-p:OutputPath=bin/runtime-async/");
        output.WriteLine(page.ToString());

        Assert.True(page.ErrorShown, "Blazor's 'An unhandled error has occurred.' is not shown");
        Assert.DoesNotContain("transcript", page.App);
    }

    [Fact]
    public void One_package_built_with_Async2_prints_the_classic_transcript_in_a_classic_app_under_NativeAOT_and_in_the_browser()
    {
        PackPortable();
        var classic = PortableClassicTranscript();
        Assert.Contains("exception: InvalidOperationException: thrown after a suspension", classic);

        var dotnet10 = workspace.Dotnet(workspace.Samples, "run", "--project", "PortableConsole", "-c", Configuration).AssertSucceeded();
        Assert.Equal(classic, dotnet10.Stdout);
        AssertRewritten(Path.Combine(workspace.Samples, "PortableConsole", "bin", Configuration, "net10.0"), ["Portable.dll"]);

        var aot = Path.Combine(workspace.Root, "publish", "portable-aot");
        workspace.Dotnet(workspace.Samples, "publish", "PortableConsole", "-c", Configuration, "-r", Rid, "-p:PublishAot=true", "-o", aot).AssertSucceeded();
        Assert.Equal(classic, workspace.Run(Path.Combine(aot, "PortableConsole"), aot).AssertSucceeded().Stdout);

        var browser = RenderBlazorApp(workspace.Samples, "blazor");
        Assert.Equal(classic.ReplaceLineEndings("\n").TrimEnd('\n'), browser.Transcript);
    }

    [Net11Fact]
    public void One_package_built_with_Async2_prints_the_classic_transcript_on_dotnet_11()
    {
        // The .NET 11 leg of the test above: .NET 11 comes from its NuGet runtime packs, as
        // 'async2 runtime 11' lays it out; where NuGet cannot serve them, the leg is skipped, saying why.
        var dotnet11 = Net11.Root;
        PackPortable();
        var classic = PortableClassicTranscript();
        workspace.Dotnet(workspace.Samples, "build", "PortableConsole", "-c", Configuration).AssertSucceeded();

        // The root holds .NET 11 alone, so an app that runs there runs on 11.
        var runtimes = ProgramRunner.Run(dotnet11.Host, ["--list-runtimes"], environment: Variables(dotnet11));
        Assert.Matches(@"(?m)^Microsoft\.NETCore\.App 11\.", runtimes.Stdout);
        Assert.DoesNotContain("Microsoft.NETCore.App 10.", runtimes.Stdout);
        var app = Path.Combine(workspace.Samples, "PortableConsole", "bin", Configuration, "net10.0", "PortableConsole.dll");
        var run = ProgramRunner.Run(dotnet11.Host, [app], environment: Variables(dotnet11));
        Assert.True(run.ExitCode == 0, run.Stderr);
        Assert.Equal(classic, run.Stdout);

        static IReadOnlyDictionary<string, string?> Variables(RuntimeRoot root) => root.Environment.ToDictionary(v => v.Key, v => (string?)v.Value);
    }

    /// <summary>
    /// Packs samples/Portable into the feed, once per workspace; its net10.0 assembly is rewritten
    /// and brings Async2.Runtime, its net8.0 one is classic and brings nothing.
    /// </summary>
    private void PackPortable()
    {
        var package = Path.Combine(workspace.Feed, "Samples.Portable.1.0.0.nupkg");
        if (File.Exists(package))
            return;
        var pack = workspace.Dotnet(workspace.Samples, "pack", "Portable", "-c", Configuration, "-o", workspace.Feed).AssertSucceeded();
        // The classic net8.0 target needs no Async2.Runtime: it was warned of its absence (ASYNC2006).
        Assert.DoesNotContain("ASYNC2006", pack.Stdout);

        using var archive = ZipFile.OpenRead(package);
        using (var nuspec = archive.GetEntry("Samples.Portable.nuspec")!.Open())
        {
            var groups = XDocument.Load(nuspec).Descendants().Where(e => e.Name.LocalName == "group")
                .ToDictionary(g => g.Attribute("targetFramework")!.Value, g => g.Elements().Select(d => $"{d.Attribute("id")!.Value} {d.Attribute("version")!.Value}").ToList());
            Assert.Equal([$"Async2.Runtime {workspace.Version}"], groups["net10.0"]);
            Assert.Empty(groups["net8.0"]);
        }
        var lib = Path.Combine(workspace.Root, "portable-lib");
        archive.GetEntry("lib/net10.0/Portable.dll")!.ExtractToFile(Path.Combine(Directory.CreateDirectory(lib).FullName, "Portable.dll"));
        AssertRewritten(lib, ["Portable.dll"], runtimeBeside: false);
    }

    /// <summary>PortableConsole built classic, with the library's source built classic too.</summary>
    private string PortableClassicTranscript()
    {
        UseLibrarySource(Path.Combine(workspace.ClassicSamples, "PortableConsole", "PortableConsole.csproj"));
        return workspace.Dotnet(workspace.ClassicSamples, "run", "--project", "PortableConsole", "-c", Configuration, "-p:Async2Enabled=false").AssertSucceeded().Stdout;
    }

    /// <summary>In samples-classic: the project references Portable's project, not its package, so the library builds as the project does.</summary>
    private static void UseLibrarySource(string project)
    {
        var text = File.ReadAllText(project);
        File.WriteAllText(project, text.Replace(PortablePackage, """<ProjectReference Include="../Portable/Portable.csproj" />"""));
    }

    /// <summary>
    /// samples/BlazorApp from <paramref name="samples"/> published (once per workspace and
    /// <paramref name="name"/>) with <paramref name="options"/>, served and rendered in Chromium.
    /// </summary>
    private RenderedPage RenderBlazorApp(string samples, string name, params string[] options)
    {
        var folder = Path.Combine(workspace.Root, "publish", name);
        if (!Directory.Exists(folder))
        {
            if (samples == workspace.Samples)
                PackPortable();
            else
                UseLibrarySource(Path.Combine(samples, "BlazorApp", "BlazorApp.csproj"));
            var publish = workspace.Dotnet(samples, ["publish", "BlazorApp", "-c", Configuration, "-o", folder, .. options]);
            output.WriteLine(publish.Output);
            publish.AssertSucceeded();
        }
        return RenderedPage.Of(HeadlessChromium.RenderedDom(Path.Combine(folder, "wwwroot"), workspace.Root,
            dom => RenderedPage.Of(dom) is { ErrorShown: true } or { Finished: true }));
    }

    /// <summary>What BlazorApp's page shows: the markup rendered into #app, the transcript in it, and whether Blazor's error bar is up.</summary>
    private sealed record RenderedPage(string App, string? Transcript, bool ErrorShown)
    {
        public bool Finished => App.Contains("<p id=\"done\">done</p>", StringComparison.Ordinal);

        public static RenderedPage Of(string dom)
        {
            var app = Regex.Match(dom, @"<div id=""app"">(.*?)</div>\s*<div id=""blazor-error-ui""", RegexOptions.Singleline);
            var transcript = Regex.Match(app.Groups[1].Value, @"<pre id=""transcript"">(.*?)</pre>", RegexOptions.Singleline);
            return new RenderedPage(
                app.Success ? app.Groups[1].Value : $"(no #app in the page)\n{dom}",
                transcript.Success ? WebUtility.HtmlDecode(transcript.Groups[1].Value) : null,
                Regex.IsMatch(dom, @"<div id=""blazor-error-ui"" style=""display: block;"""));
        }
    }
}
