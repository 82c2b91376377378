using System.IO.Compression;
using System.Text.RegularExpressions;
using System.Xml.Linq;
using Async2.Tests.Corpus;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Xunit;
using Xunit.Abstractions;

namespace Async2.Tests.Packages;

/// <summary>
/// The one-line adoption, verb by verb: samples/ (an app, a library, a classic app and an xunit
/// test project) built against the packed Async2.Build from a folder feed, as a user would.
/// Each built or published app must print what the classic build of the same source prints, and
/// its assemblies must hold no runtime-async method and no AsyncHelpers reference.
/// </summary>
[Trait("Category", "Slow")]
public sealed partial class PackagesTests(SamplesWorkspace workspace, ITestOutputHelper output) : IClassFixture<SamplesWorkspace>
{
    private const string Configuration = "Release";
    private static readonly string[] AsyncEnabledAssemblies = ["App.dll", "Library.dll"];

    /// <summary>A top-level program with two async methods, both suspending, that prints 42.</summary>
    private const string SuspendingProgram = "Console.WriteLine(await Twice(21)); static async Task<int> Twice(int n) { await Task.Yield(); return n * 2; }";

    /// <summary>The runtime identifiers Async2.Runtime's package carries a ReadyToRun image for, as its project names them.</summary>
    private static readonly string[] ReadyToRunIdentifiers = XDocument.Load(Path.Combine(TestEnvironment.RepositoryRoot, "src", "Async2.Runtime", "Async2.Runtime.csproj"))
        .Descendants("Async2ReadyToRunIdentifiers").Single().Value.Split(';');

    [Fact]
    public void Packages_carry_the_runtime_the_build_task_and_the_tool_at_one_version()
    {
        var build = Entries("Async2.Build");
        Assert.Contains("build/Async2.Build.targets", build);
        Assert.Contains("tasks/net10.0/Async2.Build.dll", build);
        Assert.Contains("tasks/net10.0/Async2.Rewriter.dll", build);
        Assert.Contains("tasks/net10.0/Mono.Cecil.dll", build);
        Assert.DoesNotContain(build, entry => entry.StartsWith("lib/", StringComparison.Ordinal));
        var dependencies = Nuspec("Async2.Build").Descendants().Where(e => e.Name.LocalName == "dependency").ToList();
        var runtime = Assert.Single(dependencies);
        Assert.Equal("Async2.Runtime", runtime.Attribute("id")!.Value);
        Assert.Equal(workspace.Version, runtime.Attribute("version")!.Value);

        Assert.Contains("lib/net10.0/Async2.Runtime.dll", Entries("Async2.Runtime"));
        foreach (var rid in ReadyToRunIdentifiers)
            Assert.Contains($"runtimes/{rid}/lib/net10.0/Async2.Runtime.dll", Entries("Async2.Runtime"));
        Assert.Contains("tools/net10.0/any/async2.dll", Entries("async2"));

        // The samples reference the version of the last pack, which samples/Directory.Build.props reads from beside the packages
        // (the repository's samples: other tests add projects to the workspace's copy).
        foreach (var project in Directory.EnumerateFiles(Path.Combine(TestEnvironment.RepositoryRoot, "samples"), "*.csproj", SearchOption.AllDirectories))
            foreach (var reference in XDocument.Load(project).Descendants("PackageReference").Where(r => r.Attribute("Include")?.Value is "Async2.Build" or "Async2.Runtime"))
                Assert.True(reference.Attribute("Version")?.Value == "$(Async2Version)",
                    $"{Path.GetFileName(project)} references {reference.Attribute("Include")!.Value} {reference.Attribute("Version")?.Value}, not the last pack's $(Async2Version)");
    }

    [Fact]
    public void A_file_based_app_run_again_after_an_edit_is_rewritten_again()
    {
        // After an edit that changes only the source, dotnet run app.cs may compile with csc alone
        // and the arguments its last build saved, which would skip the rewrite.
        var folder = Path.Combine(workspace.Samples, "FileBased");
        Directory.CreateDirectory(folder);
        var app = Path.Combine(folder, "hello.cs");
        string Source(string word) => $$"""
            #:package Async2.Build@{{workspace.Version}}
            await Task.Yield();
            var rewritten = AppDomain.CurrentDomain.GetAssemblies().Any(a => a.GetName().Name == "Async2.Runtime");
            Console.WriteLine("{{word}}, rewritten: " + rewritten);
            """;

        File.WriteAllText(app, Source("first"));
        var first = workspace.Dotnet(folder, "run", "hello.cs").AssertSucceeded();
        File.WriteAllText(app, Source("edited"));
        var edited = workspace.Dotnet(folder, "run", "hello.cs").AssertSucceeded();

        Assert.Contains("first, rewritten: True", first.Stdout);
        Assert.Contains("edited, rewritten: True", edited.Stdout);
    }

    [Fact]
    public void Dotnet_build_and_run_print_what_the_classic_build_prints()
    {
        // Rebuilt: another test may have built the app already, and an up-to-date build rewrites nothing and says nothing.
        var build = workspace.Dotnet(workspace.Samples, "build", "App", "-c", Configuration, "--no-incremental").AssertSucceeded();
        // The samples reference the package and set no property: that is the whole opt-in (0.4.2 built them classic without a word).
        Assert.Matches(@"Async2: rewrote \d+ async methods of Library\.dll \(net10\.0\)\.", build.Stdout);
        Assert.Matches(@"Async2: rewrote \d+ async methods of App\.dll \(net10\.0\)\.", build.Stdout);
        var bin = Path.Combine(workspace.Samples, "App", "bin", Configuration, "net10.0");
        AssertRewritten(bin, AsyncEnabledAssemblies);
        Assert.Empty(RewrittenAssembly.MethodsTheJitRejects(Path.Combine(bin, "Library.dll")));

        var run = workspace.Dotnet(workspace.Samples, "run", "--project", "App", "-c", Configuration, "--no-build").AssertSucceeded();
        Assert.Equal(ClassicTranscript(), run.Stdout);
    }

    [Fact]
    public void A_second_build_does_not_rewrite_and_a_changed_source_does()
    {
        BuildApp();
        var intermediate = Path.Combine(workspace.Samples, "App", "obj", Configuration, "net10.0", "App.dll");
        var written = File.GetLastWriteTimeUtc(intermediate);

        var again = workspace.Dotnet(workspace.Samples, "build", "App", "-c", Configuration).AssertSucceeded();
        Assert.DoesNotContain("Async2:", again.Stdout);
        Assert.Equal(written, File.GetLastWriteTimeUtc(intermediate));

        var program = Path.Combine(workspace.Samples, "App", "Program.cs");
        File.AppendAllText(program, "\n// changed\n");
        var changed = workspace.Dotnet(workspace.Samples, "build", "App", "-c", Configuration).AssertSucceeded();
        Assert.Matches(@"Async2: rewrote \d+ async methods? of App\.dll \(net10\.0\)\.", changed.Stdout);
        Assert.DoesNotContain("of Library.dll", changed.Stdout);
        AssertRewritten(Path.Combine(workspace.Samples, "App", "bin", Configuration, "net10.0"), AsyncEnabledAssemblies);
    }

    [Fact]
    public void A_classic_app_runs_the_rewritten_library()
    {
        var run = workspace.Dotnet(workspace.Samples, "run", "--project", "ClassicApp", "-c", Configuration).AssertSucceeded();
        var classic = workspace.Dotnet(workspace.ClassicSamples, "run", "--project", "ClassicApp", "-c", Configuration, "-p:Async2Enabled=false").AssertSucceeded();
        Assert.Equal(classic.Stdout, run.Stdout);
        AssertRewritten(Path.Combine(workspace.Samples, "ClassicApp", "bin", Configuration, "net10.0"), ["Library.dll"]);
    }

    [Fact]
    public void Dotnet_test_runs_the_rewritten_tests_against_the_rewritten_library()
    {
        var test = workspace.Dotnet(workspace.Samples, "test", "Library.Tests", "-c", Configuration);
        output.WriteLine(test.Output);
        test.AssertSucceeded();
        Assert.Matches(@"Passed!\s+- Failed:\s+0, Passed:\s+5", test.Stdout);
        AssertRewritten(Path.Combine(workspace.Samples, "Library.Tests", "bin", Configuration, "net10.0"), ["Library.Tests.dll", "Library.dll"]);
    }

    [Theory]
    [InlineData("framework-dependent")]
    [InlineData("self-contained")]
    [InlineData("ready-to-run")]
    [InlineData("native-aot")]
    public void Dotnet_publish_prints_what_the_classic_build_prints(string kind)
    {
        var folder = Path.Combine(workspace.Root, "publish", kind);
        string[] options = kind switch
        {
            "framework-dependent" => [],
            "self-contained" => ["-r", Rid, "--self-contained"],
            "ready-to-run" => ["-r", Rid, "--self-contained", "false", "-p:PublishReadyToRun=true"],
            _ => ["-r", Rid, "-p:PublishAot=true"],
        };
        var publish = workspace.Dotnet(workspace.Samples, ["publish", "App", "-c", Configuration, "-o", folder, .. options]);
        output.WriteLine(publish.Output);
        publish.AssertSucceeded();

        var run = kind == "framework-dependent"
            ? workspace.Dotnet(folder, Path.Combine(folder, "App.dll"))
            : workspace.Run(Path.Combine(folder, "App"), folder);
        Assert.Equal(ClassicTranscript(), run.AssertSucceeded().Stdout);
        if (kind != "native-aot")
            AssertRewritten(folder, AsyncEnabledAssemblies);
        // A publish for this machine's runtime identifier takes the package's precompiled Async2.Runtime.
        if (kind == "self-contained" && ReadyToRunIdentifiers.Contains(Rid))
            Assert.True(IsReadyToRunImage(Path.Combine(folder, "Async2.Runtime.dll")), $"the {Rid} publish has Async2.Runtime's IL, not its ReadyToRun image");
        // Crossgen2 compiled the rewritten assemblies, not their IL copies left aside.
        if (kind == "ready-to-run")
            Assert.All(AsyncEnabledAssemblies, name => Assert.True(IsReadyToRunImage(Path.Combine(folder, name)), $"{name} is not a ReadyToRun image"));
    }

    [Fact]
    public void A_trimmed_publish_warns_no_more_than_the_classic_one()
    {
        string[] trimmed = ["publish", "App", "-c", Configuration, "-r", Rid, "--self-contained", "-p:PublishTrimmed=true"];
        var async2 = workspace.Dotnet(workspace.Samples, [.. trimmed, "-o", Path.Combine(workspace.Root, "publish", "trimmed")]).AssertSucceeded();
        var classic = workspace.Dotnet(workspace.ClassicSamples, [.. trimmed, "-p:Async2Enabled=false", "-o", Path.Combine(workspace.Root, "publish", "trimmed-classic")]).AssertSucceeded();
        // An opted-out project says so (0.4.2 said nothing).
        Assert.Contains("Async2: App (net10.0) built as classic async, not rewritten: Async2Enabled is 'false'.", classic.Output);
        Assert.Equal(TrimWarnings(classic.Output), TrimWarnings(async2.Output));
        var run = workspace.Run(Path.Combine(workspace.Root, "publish", "trimmed", "App"), workspace.Root).AssertSucceeded();
        Assert.Equal(ClassicTranscript(), run.Stdout);
    }

    [Fact]
    public void A_trimmed_publish_keeps_the_members_DynamicallyAccessedMembers_asks_for()
    {
        // Callers in the assembly call the variants, which lacked the annotations of M's parameters
        // and type parameters: the trimmer kept no methods of Foo, no constructor of Baz (found by a helper).
        var project = NewApp("TrimmedAnnotations", """
            using System.Diagnostics.CodeAnalysis;
            using System.Reflection;
            Console.WriteLine("parameter: " + await Names(typeof(Foo)));
            Console.WriteLine("type parameter: " + await NamesOf<Bar>());
            Console.WriteLine("before the await: " + await NamesFirst(typeof(Qux)));
            Console.WriteLine("created: " + await Create(typeof(Baz)));
            Console.WriteLine("class: " + await new Repository<Row>().Columns());
            ILister lister = new Lister();
            Console.WriteLine("interface: " + await lister.List(typeof(Target)));
            Console.WriteLine("another assembly: " + await AnnotatedLibrary.Remote.MethodsOf(typeof(Gadget)));

            static async Task<string> Names([DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicMethods)] Type type)
            {
                await Task.Yield();
                return string.Join(",", type.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly).Select(m => m.Name).Order());
            }
            static async Task<string> NamesOf<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicMethods)] T>()
            {
                await Task.Yield();
                return string.Join(",", typeof(T).GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly).Select(m => m.Name).Order());
            }
            static async Task<string> NamesFirst([DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicMethods)] Type type)
            {
                var names = string.Join(",", type.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly).Select(m => m.Name).Order());
                await Task.Yield();
                return names;
            }
            static async Task<object?> Create([DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicParameterlessConstructor)] Type type)
            {
                await Task.Yield();
                return Activator.CreateInstance(type);
            }
            class Repository<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicProperties)] T>
            {
                public async Task<string> Columns()
                {
                    await Task.Yield();
                    return string.Join(",", typeof(T).GetProperties().Select(p => p.Name).Order());
                }
            }
            interface ILister { Task<string> List([DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicMethods)] Type type); }
            class Lister : ILister
            {
                public async Task<string> List([DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicMethods)] Type type)
                {
                    await Task.Yield();
                    return string.Join(",", type.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly).Select(m => m.Name).Order());
                }
            }
            class Target { public void Omega() { } }
            class Gadget { public void Spin() { } }
            class Foo { public void Alpha() { } public void Beta() { } }
            class Bar { public void Gamma() { } }
            class Qux { public void Quux() { } }
            class Baz { public override string ToString() => "a Baz"; }
            class Row { public int Id { get; set; } public string Name { get; set; } = ""; }
            """);
        // Called through the bridges calls into another rewritten assembly take.
        var library = Path.Combine(workspace.Samples, "AnnotatedLibrary");
        Directory.CreateDirectory(library);
        File.Copy(Path.Combine(workspace.Samples, "Library", "Library.csproj"), Path.Combine(library, "AnnotatedLibrary.csproj"));
        File.WriteAllText(Path.Combine(library, "Remote.cs"), """
            using System.Diagnostics.CodeAnalysis;
            using System.Reflection;
            namespace AnnotatedLibrary;
            public static class Remote
            {
                public static async Task<string> MethodsOf([DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicMethods)] Type type)
                {
                    await Task.Yield();
                    return string.Join(",", type.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly).Select(m => m.Name).Order());
                }
            }
            """);
        var projectFile = Path.Combine(project, "TrimmedAnnotations.csproj");
        File.WriteAllText(projectFile, File.ReadAllText(projectFile).Replace("</Project>", """<ItemGroup><ProjectReference Include="../AnnotatedLibrary/AnnotatedLibrary.csproj" /></ItemGroup></Project>"""));
        (string Output, IReadOnlyList<string> Warnings) Publish(bool async2)
        {
            var folder = Path.Combine(workspace.Root, "publish", async2 ? "trimmed-annotations" : "trimmed-annotations-classic");
            var publish = workspace.Dotnet(project, "publish", "-c", Configuration, "-r", Rid, "--self-contained", "-p:PublishTrimmed=true", $"-p:Async2Enabled={async2}",
                $"-p:IntermediateOutputPath=obj/{async2}/", "-o", folder).AssertSucceeded();
            return (workspace.Run(Path.Combine(folder, "TrimmedAnnotations"), workspace.Root).AssertSucceeded().Stdout, TrimWarnings(publish.Output));
        }

        var classic = Publish(async2: false);
        var rewritten = Publish(async2: true);

        Assert.Contains("parameter: Alpha,Beta", classic.Output);
        Assert.Contains("created: a Baz", classic.Output);
        Assert.Contains("interface: Omega", classic.Output);
        Assert.Contains("another assembly: Spin", classic.Output);
        Assert.Equal(classic.Output, rewritten.Output);
        Assert.Empty(classic.Warnings);
        Assert.Empty(rewritten.Warnings);
    }

    [Fact]
    public void A_trimmed_publish_keeps_the_method_names_in_stack_traces()
    {
        // Awaited methods are called through their variants only: nothing else references them, and
        // the trimmer dropped them with the [AsyncStateMachine] that names a variant's frame as its method.
        var project = NewApp("TrimmedTraces", """
            try { await Outer(); }
            catch (Exception e) { Console.WriteLine(e); }

            static async Task Outer() { await Inner(1); }
            static async Task Inner(int n) { await Task.Delay(1); throw new InvalidOperationException("boom " + n); }
            """);
        string Publish(bool async2)
        {
            var folder = Path.Combine(workspace.Root, "publish", async2 ? "trimmed-traces" : "trimmed-traces-classic");
            workspace.Dotnet(project, "publish", "-c", Configuration, "-r", Rid, "--self-contained", "-p:PublishTrimmed=true", $"-p:Async2Enabled={async2}", "-o", folder).AssertSucceeded();
            return workspace.Run(Path.Combine(folder, "TrimmedTraces"), workspace.Root).AssertSucceeded().Stdout;
        }

        var classic = Publish(async2: false);
        var rewritten = Publish(async2: true);

        Assert.Contains("at Program.<<Main>$>g__Inner|0_1(Int32 n)", classic);
        Assert.Equal(classic, rewritten);
    }

    [Fact]
    public void A_project_without_async_methods_builds_and_runs()
    {
        // dotnet new console's Hello World: the task rewrites nothing and made no folder for its stamp (MSB3371).
        var project = NewApp("NoAsync", """Console.WriteLine("Hello, World!");""");

        workspace.Dotnet(project, "build", "-c", Configuration).AssertSucceeded();
        var run = workspace.Dotnet(project, "run", "-c", Configuration, "--no-build").AssertSucceeded();

        Assert.Equal("Hello, World!", run.Stdout.Trim());
    }

    [Fact]
    public void An_opt_out_that_does_not_take_effect_is_warned_about()
    {
        // The tree's own runtime-async=on stays with the opt-out: the output is no classic build
        // (it said "built as classic async", and the app died with TypeLoadException; found by a helper).
        var ownFeatures = NewApp("OwnRuntimeAsync", SuspendingProgram,
            "<Features>$(Features);runtime-async=on</Features><EnablePreviewFeatures>true</EnablePreviewFeatures><NoWarn>$(NoWarn);SYSLIB5007</NoWarn><Async2Enabled>false</Async2Enabled>");
        var left = workspace.Dotnet(ownFeatures, "build", "-c", Configuration).AssertSucceeded();
        Assert.Contains("warning ASYNC2008: Async2: OwnRuntimeAsync (net10.0) is not rewritten (Async2Enabled is 'false'), but its Features turn runtime-async on", left.Stdout);
        Assert.Contains("Async2: OwnRuntimeAsync (net10.0) built in runtime-async form, not rewritten", left.Stdout);
        Assert.DoesNotContain("built as classic async", left.Stdout);

        // Directory.Build.targets comes after the package's targets: the project was rewritten without a word.
        var late = NewApp("LateOptOut", SuspendingProgram);
        File.WriteAllText(Path.Combine(late, "Directory.Build.targets"), "<Project><PropertyGroup><Async2Enabled>false</Async2Enabled></PropertyGroup></Project>");
        var rewritten = workspace.Dotnet(late, "build", "-c", Configuration).AssertSucceeded();
        Assert.Contains("warning ASYNC2009: Async2: LateOptOut (net10.0) is still rewritten: Async2Enabled became 'false' after Async2.Build's targets read it", rewritten.Stdout);
        Assert.Contains("Async2: rewrote", rewritten.Stdout);
    }

    [Fact]
    public void Features_set_again_after_the_package_still_build_in_runtime_async_form_and_rewrite()
    {
        // A Directory.Build.targets setting Features dropped runtime-async=on: the build came out
        // classic while it said "no async methods; nothing to rewrite", and stayed classic once the
        // file was gone, since Features is not among the compiler's hashed inputs (found by a helper).
        var project = NewApp("LateFeatures", SuspendingProgram);
        var targets = Path.Combine(project, "Directory.Build.targets");
        File.WriteAllText(targets, "<Project><PropertyGroup><Features>strict</Features></PropertyGroup></Project>");

        var strict = workspace.Dotnet(project, "build", "-c", Configuration).AssertSucceeded();
        File.Delete(targets);
        var plain = workspace.Dotnet(project, "build", "-c", Configuration).AssertSucceeded();
        var run = workspace.Dotnet(project, "run", "-c", Configuration, "--no-build").AssertSucceeded();

        Assert.Contains("Async2: rewrote 2 async methods of LateFeatures.dll (net10.0).", strict.Stdout);
        Assert.DoesNotContain("nothing to rewrite", strict.Stdout);
        Assert.Contains("Async2: rewrote 2 async methods of LateFeatures.dll (net10.0).", plain.Stdout);
        Assert.Equal("42", run.Stdout.Trim());
        AssertRewritten(Path.Combine(project, "bin", Configuration, "net10.0"), ["LateFeatures.dll"], runtimeBeside: true);
    }

    [Fact]
    public void A_NoWarn_given_on_the_command_line_or_set_again_late_still_builds()
    {
        // NoWarn on the command line, or set without $(NoWarn) in Directory.Build.targets, dropped
        // the package's suppression of SYSLIB5007 and CA2252, errors at every await (found by a helper).
        var project = NewApp("OwnNoWarn", SuspendingProgram);
        var onCommandLine = workspace.Dotnet(project, "build", "-c", Configuration, "-p:NoWarn=CS1591").AssertSucceeded();
        File.WriteAllText(Path.Combine(project, "Directory.Build.targets"), "<Project><PropertyGroup><NoWarn>CS1591</NoWarn></PropertyGroup></Project>");
        var setLate = workspace.Dotnet(project, "build", "-c", Configuration, "--no-incremental").AssertSucceeded();
        var run = workspace.Dotnet(project, "run", "-c", Configuration, "--no-build").AssertSucceeded();

        Assert.Contains("Async2: rewrote 2 async methods of OwnNoWarn.dll (net10.0).", onCommandLine.Stdout);
        Assert.Contains("Async2: rewrote 2 async methods of OwnNoWarn.dll (net10.0).", setLate.Stdout);
        Assert.Equal("42", run.Stdout.Trim());
    }

    [Fact]
    public void A_build_instrumented_for_test_coverage_is_built_as_classic_async()
    {
        // Roslyn's instrumentation (Instrument, as Live Unit Testing builds) names each method by its
        // row number, which the rewrite moves: coverage was filed under other methods (found by a helper).
        var project = NewApp("Instrumented", """
            Console.WriteLine(await Twice(21));
            static async Task<int> Twice(int n) { await Task.Yield(); return n * 2; }
            """ + CoverageInstrumentationStub.Source);

        var build = workspace.Dotnet(project, "build", "-c", Configuration, "-p:Instrument=TestCoverage").AssertSucceeded();
        var run = workspace.Dotnet(project, "run", "-c", Configuration, "--no-build", "-p:Instrument=TestCoverage").AssertSucceeded();

        Assert.Contains("Async2: Instrumented (net10.0) built as classic async, not rewritten: it is instrumented for test coverage (Instrument is 'TestCoverage')", build.Stdout);
        Assert.DoesNotContain("Async2: rewrote", build.Stdout);
        Assert.Equal("42", run.Stdout.Trim());
    }

    [Fact]
    public void Dotnet_watch_restarts_the_app_on_an_edit_rather_than_hot_reloading_it()
    {
        // Hot reload put the compiler's body of an edited async method into its rewritten Task
        // thunk, which then returned the int it computed as the Task: "value" printed garbage or
        // the app died, where a restart rebuilds and rewrites.
        var project = NewApp("Watched", """
            for (int i = 0; i < 3000; i++)
            {
                Task<int> pending = Compute(10);
                Console.WriteLine("value " + await pending);
                await Task.Delay(100);
            }
            static async Task<int> Compute(int x) { await Task.Yield(); return x * 2; }
            """);
        using var watch = workspace.StartDotnet(project, "watch", "run", "--non-interactive", "-c", Configuration);
        watch.WaitFor("value 20", TimeSpan.FromMinutes(4));
        // Edited before dotnet watch watches the files, the change goes unseen (it did on a loaded machine).
        watch.WaitFor("Waiting for changes", TimeSpan.FromMinutes(1));
        Assert.Contains("Project does not support Hot Reload: 'StartupHookSupport' property is 'False'", watch.Output);

        var program = Path.Combine(project, "Program.cs");
        File.WriteAllText(program, File.ReadAllText(program).Replace("x * 2", "x * 3"));
        watch.WaitFor("value 30", TimeSpan.FromMinutes(4));

        Assert.DoesNotContain("changes applied", watch.Output);
    }

    [Fact]
    public void Dotnet_watch_of_a_classic_app_restarts_it_on_an_edit_of_a_rewritten_library()
    {
        // dotnet watch looks at the project it launches only: the classic app gets the rule
        // through Async2.Runtime, which the library brings along.
        var library = Path.Combine(workspace.Samples, "WatchedLibrary");
        Directory.CreateDirectory(library);
        File.Copy(Path.Combine(workspace.Samples, "Library", "Library.csproj"), Path.Combine(library, "WatchedLibrary.csproj"));
        var source = Path.Combine(library, "Calculator.cs");
        File.WriteAllText(source, """
            namespace Watched;
            public static class Calculator
            {
                public static async Task<int> Compute(int x) { await Task.Yield(); return x * 2; }
            }
            """);
        var app = Path.Combine(workspace.Samples, "WatchedClassicApp");
        Directory.CreateDirectory(app);
        File.WriteAllText(Path.Combine(app, "WatchedClassicApp.csproj"), File.ReadAllText(Path.Combine(workspace.Samples, "ClassicApp", "ClassicApp.csproj"))
            .Replace("../Library/Library.csproj", "../WatchedLibrary/WatchedLibrary.csproj"));
        File.WriteAllText(Path.Combine(app, "Program.cs"), """
            for (int i = 0; i < 3000; i++)
            {
                Console.WriteLine("value " + await Watched.Calculator.Compute(10));
                await Task.Delay(100);
            }
            """);

        using var watch = workspace.StartDotnet(app, "watch", "run", "--non-interactive", "-c", Configuration);
        watch.WaitFor("value 20", TimeSpan.FromMinutes(4));
        // Edited before dotnet watch watches the files, the change goes unseen (it did on a loaded machine).
        watch.WaitFor("Waiting for changes", TimeSpan.FromMinutes(1));
        Assert.Contains("Project does not support Hot Reload: 'StartupHookSupport' property is 'False'", watch.Output);

        File.WriteAllText(source, File.ReadAllText(source).Replace("x * 2", "x * 3"));
        watch.WaitFor("value 30", TimeSpan.FromMinutes(4));

        Assert.DoesNotContain("changes applied", watch.Output);
        AssertRewritten(Path.Combine(app, "bin", Configuration, "net10.0"), ["WatchedLibrary.dll"]);
    }

    [Fact]
    public void A_project_keeps_its_own_LangVersion()
    {
        // LangVersion 12: `field` in an accessor is the class's field, not C# 14's backing field. The
        // package raised every project to preview, which changed what this prints.
        var project = NewApp("OwnLangVersion", """
            var c = new C { Name = "x" };
            Console.WriteLine(c.Name + " field=" + c.field);
            await Task.Yield();
            class C
            {
                public string field = "member";
                public string Name { get => field; set => field = value; }
            }
            """, "<LangVersion>12</LangVersion>");
        var classic = workspace.Dotnet(project, "run", "-c", Configuration, "-p:Async2Enabled=false").AssertSucceeded().Stdout;
        var async2 = workspace.Dotnet(project, "run", "-c", Configuration).AssertSucceeded();

        Assert.Equal("x field=x", classic.Trim());
        Assert.Equal(classic, async2.Stdout);
        AssertRewritten(Path.Combine(project, "bin", Configuration, "net10.0"), ["OwnLangVersion.dll"]);
    }

    [Fact]
    public void A_folder_the_compiler_output_cannot_be_kept_in_fails_the_build_with_ASYNC2003()
    {
        var project = NewApp("UnwritableKeep", "await Task.Yield(); Console.WriteLine(1);");
        var obj = Path.Combine(project, "obj", Configuration, "net10.0");
        Directory.CreateDirectory(obj);
        File.WriteAllText(Path.Combine(obj, "async2"), "a file where the task keeps the compiler's output");

        var build = workspace.Dotnet(project, "build", "-c", Configuration);

        Assert.NotEqual(0, build.ExitCode);
        Assert.Contains("error ASYNC2003", build.Stdout);
        Assert.DoesNotContain("MSB4018", build.Stdout);
        Assert.False(File.Exists(Path.Combine(obj, "UnwritableKeep.dll")), "the unrewritten assembly was left in obj/");
    }

    [Fact]
    public void Switching_to_DebugType_none_after_an_edit_builds()
    {
        // The previous build's PDB stays in obj/ until the build ends: the task kept it beside the
        // new assembly, and the rewrite refused the pair with ASYNC2001 (found by a helper).
        var project = NewApp("NoSymbols", "Console.WriteLine(await Twice(21)); static async Task<int> Twice(int n) { await Task.Yield(); return n * 2; }");
        workspace.Dotnet(project, "build", "-c", Configuration).AssertSucceeded();
        File.AppendAllText(Path.Combine(project, "Program.cs"), "\n// edited\n");

        var build = workspace.Dotnet(project, "build", "-c", Configuration, "-p:DebugType=none");
        Assert.True(build.ExitCode == 0, build.Output);
        var run = workspace.Dotnet(project, "run", "-c", Configuration, "--no-build", "-p:DebugType=none").AssertSucceeded();

        Assert.Equal("42", run.Stdout.Trim());
        AssertRewritten(Path.Combine(project, "bin", Configuration, "net10.0"), ["NoSymbols.dll"]);
        Assert.False(File.Exists(Path.Combine(project, "obj", Configuration, "net10.0", "async2", "NoSymbols.pdb")), "a stale PDB was kept beside the compiled assembly");
    }

    [Fact]
    public void A_signed_project_is_signed_again_after_the_rewrite()
    {
        // The rewrite changes the bytes the compiler's signature covers: bin/ held an assembly with
        // the public key and a zeroed signature (found by a helper; sn -v and .NET Framework loaders refuse it).
        var project = NewApp("Signed", "Console.WriteLine(await Twice(21)); static async Task<int> Twice(int n) { await Task.Yield(); return n * 2; }",
            "<SignAssembly>true</SignAssembly><AssemblyOriginatorKeyFile>signing.snk</AssemblyOriginatorKeyFile>");
        File.WriteAllBytes(Path.Combine(project, "signing.snk"), StrongNameSignature.NewKeyPair());

        var classic = workspace.Dotnet(project, "run", "-c", Configuration, "-p:Async2Enabled=false", "-p:IntermediateOutputPath=obj/classic/", "-p:OutputPath=bin/classic/").AssertSucceeded();
        var build = workspace.Dotnet(project, "build", "-c", Configuration).AssertSucceeded();
        var run = workspace.Dotnet(project, "run", "-c", Configuration, "--no-build").AssertSucceeded();

        Assert.Equal(StrongNameSignature.State.Valid, StrongNameSignature.Check(Path.Combine(project, "bin", "classic", "Signed.dll")));
        var bin = Path.Combine(project, "bin", Configuration, "net10.0");
        AssertRewritten(bin, ["Signed.dll"]);
        Assert.Equal(StrongNameSignature.State.Valid, StrongNameSignature.Check(Path.Combine(bin, "Signed.dll")));
        Assert.DoesNotContain("ASYNC2005", build.Stdout);
        Assert.Equal("42", run.Stdout.Trim());
        Assert.Equal(classic.Stdout, run.Stdout);
    }

    [Fact]
    public void A_library_that_keeps_Async2_Build_private_is_warned_that_its_referencers_miss_the_runtime()
    {
        // PrivateAssets="all", the idiom for build-only packages, kept Async2.Runtime from the app
        // referencing the library: it built without a word and died with FileNotFoundException (found by a helper).
        var library = Path.Combine(workspace.Samples, "PrivateLibrary");
        Directory.CreateDirectory(library);
        File.WriteAllText(Path.Combine(library, "PrivateLibrary.csproj"), File.ReadAllText(Path.Combine(workspace.Samples, "Library", "Library.csproj"))
            .Replace("""<PackageReference Include="Async2.Build" Version="$(Async2Version)" />""", $"""<PackageReference Include="Async2.Build" Version="{workspace.Version}" PrivateAssets="all" />"""));
        File.WriteAllText(Path.Combine(library, "Answer.cs"), "namespace PrivateLibrary; public static class Answer { public static async Task<int> Get() { await Task.Yield(); return 42; } }");
        var app = NewApp("UsesPrivateLibrary", "Console.WriteLine(await PrivateLibrary.Answer.Get());");
        File.WriteAllText(Path.Combine(app, "UsesPrivateLibrary.csproj"), File.ReadAllText(Path.Combine(app, "UsesPrivateLibrary.csproj"))
            .Replace("""<PackageReference Include="Async2.Build" Version="$(Async2Version)" />""", """<ProjectReference Include="../PrivateLibrary/PrivateLibrary.csproj" />"""));

        var warned = workspace.Dotnet(app, "build", "-c", Configuration).AssertSucceeded();
        Assert.Contains("warning ASYNC2006", warned.Stdout);
        // A multi-targeted library that follows the advice unconditionally made its older targets depend on Async2.Runtime.
        Assert.Contains("Condition=\"'$(TargetFramework)' == 'net10.0'\"", warned.Stdout);
        Assert.Contains("Reference Async2.Runtime itself", warned.Stdout);

        // Referenced itself but kept private as well (as a GlobalPackageReference of it would be), it
        // does not reach the app either: the warning stays (it went quiet before, found by a helper).
        var privateProject = File.ReadAllText(Path.Combine(library, "PrivateLibrary.csproj"));
        File.WriteAllText(Path.Combine(library, "PrivateLibrary.csproj"), privateProject
            .Replace("PrivateAssets=\"all\" />", $"PrivateAssets=\"all\" /><PackageReference Include=\"Async2.Runtime\" Version=\"{workspace.Version}\" PrivateAssets=\"all\" />"));
        var stillWarned = workspace.Dotnet(app, "build", "-c", Configuration).AssertSucceeded();
        Assert.Contains("warning ASYNC2006", stillWarned.Stdout);

        File.WriteAllText(Path.Combine(library, "PrivateLibrary.csproj"), privateProject
            .Replace("PrivateAssets=\"all\" />", $"PrivateAssets=\"all\" /><PackageReference Include=\"Async2.Runtime\" Version=\"{workspace.Version}\" />"));
        var quiet = workspace.Dotnet(app, "build", "-c", Configuration).AssertSucceeded();
        var run = workspace.Dotnet(app, "run", "-c", Configuration, "--no-build").AssertSucceeded();

        Assert.DoesNotContain("ASYNC2006", quiet.Stdout);
        AssertRewritten(Path.Combine(app, "bin", Configuration, "net10.0"), ["PrivateLibrary.dll"]);
        Assert.Equal("42", run.Stdout.Trim());

        // Its async method gone, the library is left as compiled and needs no Async2.Runtime: the
        // copy of the compiler's output kept by its rewritten builds goes, and the warning with it.
        File.WriteAllText(Path.Combine(library, "PrivateLibrary.csproj"), privateProject);
        File.WriteAllText(Path.Combine(library, "Answer.cs"), "namespace PrivateLibrary; public static class Answer { public static Task<int> Get() => Task.FromResult(42); }");
        var unrewritten = workspace.Dotnet(app, "build", "-c", Configuration).AssertSucceeded();
        Assert.Contains("PrivateLibrary.dll (net10.0) has no async methods; nothing to rewrite.", unrewritten.Stdout);
        Assert.DoesNotContain("ASYNC2006", unrewritten.Stdout);
        Assert.False(File.Exists(Path.Combine(library, "obj", Configuration, "net10.0", "async2", "PrivateLibrary.dll")));
    }

    [Theory]
    [InlineData("IsTestProject")] // Microsoft.NET.Test.Sdk's (VSTest)
    [InlineData("IsTestingPlatformApplication")] // Microsoft.Testing.Platform's (xunit.v3, MSTest's runner), which sets no IsTestProject
    public void A_test_project_that_keeps_Async2_Build_private_is_not_warned(string testProjectProperty)
    {
        // Nothing references a test project, so nothing misses Async2.Runtime. An xunit.v3 test
        // project on Microsoft.Testing.Platform was warned (found by a helper running vs-threading's suite).
        var tests = NewApp("PrivateTests" + testProjectProperty, "Console.WriteLine(await Answer()); static async Task<int> Answer() { await Task.Yield(); return 42; }",
            $"<{testProjectProperty}>true</{testProjectProperty}>");
        var project = Path.Combine(tests, "PrivateTests" + testProjectProperty + ".csproj");
        File.WriteAllText(project, File.ReadAllText(project)
            .Replace("""<PackageReference Include="Async2.Build" Version="$(Async2Version)" />""", """<PackageReference Include="Async2.Build" Version="$(Async2Version)" PrivateAssets="all" />"""));

        var build = workspace.Dotnet(tests, "build", "-c", Configuration).AssertSucceeded();

        Assert.Contains("PrivateAssets=\"all\"", File.ReadAllText(project));
        Assert.Contains("Async2: rewrote 2 async methods of PrivateTests" + testProjectProperty + ".dll (net10.0).", build.Stdout);
        Assert.DoesNotContain("ASYNC2006", build.Stdout);
    }

    /// <summary>
    /// A console project beside the samples (<paramref name="name"/> may name a folder under them
    /// first), as App's project without the library, with <paramref name="properties"/> added.
    /// </summary>
    private string NewApp(string name, string program, string properties = "")
    {
        var project = Path.Combine(workspace.Samples, name);
        Directory.CreateDirectory(project);
        File.WriteAllText(Path.Combine(project, Path.GetFileName(name) + ".csproj"), File.ReadAllText(Path.Combine(workspace.Samples, "App", "App.csproj"))
            .Replace("""<ProjectReference Include="../Library/Library.csproj" />""", "")
            .Replace("</PropertyGroup>", properties + "</PropertyGroup>"));
        File.WriteAllText(Path.Combine(project, "Program.cs"), program);
        return project;
    }

    [Fact]
    public void Referencing_the_package_rewrites_the_net10_target_and_says_why_an_older_one_stays_classic()
    {
        // The package reference is the opt-in, with no property (0.4.2 built it classic without a word).
        var library = Path.Combine(workspace.Samples, "MultiTargeted");
        Directory.CreateDirectory(library);
        File.WriteAllText(Path.Combine(library, "MultiTargeted.csproj"), File.ReadAllText(Path.Combine(workspace.Samples, "Library", "Library.csproj"))
            .Replace("<TargetFramework>net10.0</TargetFramework>", "<TargetFrameworks>net10.0;net8.0</TargetFrameworks>"));
        File.WriteAllText(Path.Combine(library, "Answer.cs"), "namespace MultiTargeted; public static class Answer { public static async Task<int> Get() { await Task.Yield(); return 42; } }");

        var build = workspace.Dotnet(library, "build", "-c", Configuration).AssertSucceeded();

        Assert.Contains("Async2: rewrote 1 async method of MultiTargeted.dll (net10.0).", build.Stdout);
        Assert.Contains("Async2: MultiTargeted (net8.0) built as classic async, not rewritten: runtime async needs net10.0 or later.", build.Stdout);
        var bin = Path.Combine(library, "bin", Configuration);
        AssertRewritten(Path.Combine(bin, "net10.0"), ["MultiTargeted.dll"], runtimeBeside: false);
        Assert.True(ReferencesAsync2Runtime(Path.Combine(bin, "net10.0", "MultiTargeted.dll")));
        Assert.False(ReferencesAsync2Runtime(Path.Combine(bin, "net8.0", "MultiTargeted.dll")));
    }

    [Fact]
    public void Central_package_management_takes_a_versionless_reference_and_a_global_one_warns_for_packed_libraries_only()
    {
        // The README's snippet failed with NU1008 under a Directory.Packages.props: the version goes in a PackageVersion.
        var central = Path.Combine(workspace.Samples, "Central");
        Directory.CreateDirectory(central);
        File.WriteAllText(Path.Combine(central, "Directory.Packages.props"), $"""
            <Project>
              <PropertyGroup><ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally></PropertyGroup>
              <ItemGroup><PackageVersion Include="Async2.Build" Version="{workspace.Version}" /></ItemGroup>
            </Project>
            """);
        var app = NewApp(Path.Combine("Central", "CentralApp"), "await Task.Yield(); Console.WriteLine(42);");
        var appProject = Path.Combine(app, "CentralApp.csproj");
        File.WriteAllText(appProject, File.ReadAllText(appProject).Replace("""Version="$(Async2Version)" """, ""));
        var versionless = workspace.Dotnet(app, "build", "-c", Configuration).AssertSucceeded();
        Assert.Contains("Async2: rewrote 1 async method of CentralApp.dll (net10.0).", versionless.Stdout);
        AssertRewritten(Path.Combine(app, "bin", Configuration, "net10.0"), ["CentralApp.dll"]);

        // A GlobalPackageReference keeps Async2.Runtime private in every project, and ASYNC2006 fired
        // for each, test projects too. Every project of the tree has Async2.Runtime itself: only a
        // library's package misses it.
        var global = Path.Combine(workspace.Samples, "CentralGlobal");
        Directory.CreateDirectory(Path.Combine(global, "GlobalLibrary"));
        Directory.CreateDirectory(Path.Combine(global, "GlobalTests"));
        File.WriteAllText(Path.Combine(global, "Directory.Packages.props"), $"""
            <Project>
              <PropertyGroup><ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally></PropertyGroup>
              <ItemGroup><GlobalPackageReference Include="Async2.Build" Version="{workspace.Version}" /></ItemGroup>
            </Project>
            """);
        const string Project = """<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework><ImplicitUsings>enable</ImplicitUsings>{0}</PropertyGroup>{1}</Project>""";
        File.WriteAllText(Path.Combine(global, "GlobalLibrary", "GlobalLibrary.csproj"), string.Format(Project, "", ""));
        File.WriteAllText(Path.Combine(global, "GlobalLibrary", "Answer.cs"), "namespace GlobalLibrary; public static class Answer { public static async Task<int> Get() { await Task.Yield(); return 42; } }");
        // A library with no async method is not rewritten and needs no Async2.Runtime: no warning (Polly.Testing's got one).
        Directory.CreateDirectory(Path.Combine(global, "GlobalPlain"));
        File.WriteAllText(Path.Combine(global, "GlobalPlain", "GlobalPlain.csproj"), string.Format(Project, "", ""));
        File.WriteAllText(Path.Combine(global, "GlobalPlain", "Plain.cs"), "namespace GlobalPlain; public static class Plain { public static int Get() => 42; }");
        File.WriteAllText(Path.Combine(global, "GlobalTests", "GlobalTests.csproj"), string.Format(Project,
            "<IsTestProject>true</IsTestProject>", """<ItemGroup><ProjectReference Include="../GlobalLibrary/GlobalLibrary.csproj" /><ProjectReference Include="../GlobalPlain/GlobalPlain.csproj" /></ItemGroup>"""));
        File.WriteAllText(Path.Combine(global, "GlobalTests", "AnswerTests.cs"), "namespace GlobalTests; public static class AnswerTests { public static async Task<bool> Is42() => await GlobalLibrary.Answer.Get() == 42; }");

        var tests = workspace.Dotnet(Path.Combine(global, "GlobalTests"), "build", "-c", Configuration).AssertSucceeded();

        var warnings = tests.Stdout.Split('\n').Where(line => line.Contains("warning ASYNC2006")).ToList();
        Assert.NotEmpty(warnings);
        Assert.All(warnings, line => Assert.Contains("GlobalLibrary.csproj", line));
        Assert.Contains("Async2.Build is a GlobalPackageReference, so the package of GlobalLibrary does not depend on Async2.Runtime", warnings[0]);
        Assert.Contains("Async2: GlobalPlain.dll (net10.0) has no async methods; nothing to rewrite.", tests.Stdout);
        // Libraries both: bin/ holds no package dependencies.
        AssertRewritten(Path.Combine(global, "GlobalTests", "bin", Configuration, "net10.0"), ["GlobalTests.dll", "GlobalLibrary.dll"], runtimeBeside: false);
    }

    [Theory]
    [InlineData("README.md")]
    [InlineData("docs/package-readme.md")]
    public void The_readmes_reference_the_version_a_release_pack_gets(string readme)
    {
        // docs/package-readme.md is the packages' own README on NuGet: it told users to reference 0.4.2 in 0.5.1's packages.
        var references = Regex.Matches(File.ReadAllText(Path.Combine(TestEnvironment.RepositoryRoot, readme)),
            @"Include=""Async2\.(?:Build|Runtime)"" Version=""([^""]*)""");
        Assert.NotEmpty(references);
        Assert.All(references, reference => Assert.Equal(workspace.ReleaseVersion, reference.Groups[1].Value));
    }

    [Fact]
    public void Packages_carry_the_licence_and_symbols_and_a_dev_pack_gets_a_version_of_its_own()
    {
        // NuGet caches a package by version: a second pack at the version a cache holds was ignored.
        Assert.Matches($@"^{Regex.Escape(workspace.ReleaseVersion)}-dev\.\d{{14}}$", workspace.Version);
        foreach (var package in new[] { "Async2.Runtime", "Async2.Build", "async2" })
        {
            var metadata = Nuspec(package).Root!.Elements().Single(e => e.Name.LocalName == "metadata");
            var license = metadata.Elements().Single(e => e.Name.LocalName == "license");
            Assert.Equal(("expression", "MIT"), (license.Attribute("type")?.Value, license.Value));
            Assert.Equal(workspace.Version, metadata.Elements().Single(e => e.Name.LocalName == "version").Value);

            // Each PDB of the symbol package lies where the package has its assembly, as symbol servers expect.
            using var symbols = ZipFile.OpenRead(Path.Combine(workspace.Feed, $"{package}.{workspace.Version}.snupkg"));
            var pdbs = symbols.Entries.Select(e => e.FullName).Where(name => name.EndsWith(".pdb", StringComparison.Ordinal)).ToList();
            Assert.NotEmpty(pdbs);
            Assert.All(pdbs, pdb => Assert.Contains(Path.ChangeExtension(pdb, ".dll"), Entries(package)));
        }

        // A release pack keeps the clean version.
        var release = Path.Combine(workspace.Root, "release");
        workspace.Dotnet(TestEnvironment.RepositoryRoot, "pack", "src/Async2.Runtime", "-c", Configuration, "--no-build", "-p:Async2Release=true", "-o", release).AssertSucceeded();
        Assert.True(File.Exists(Path.Combine(release, $"Async2.Runtime.{workspace.ReleaseVersion}.nupkg")), string.Join(", ", Directory.GetFiles(release)));
    }

    [Fact]
    public void The_tool_installs_from_the_folder_feed_and_runs()
    {
        var tools = Path.Combine(workspace.Root, "tools");
        workspace.Dotnet(workspace.Root, "tool", "install", "async2", "--tool-path", tools, "--add-source", workspace.Feed, "--version", workspace.Version).AssertSucceeded();
        var help = workspace.Run(Path.Combine(tools, "async2"), workspace.Root, "--help").AssertSucceeded();
        Assert.Contains("rewrite", help.Stdout);
    }

    [Fact]
    public void A_rewriter_error_fails_the_build_with_its_code_and_source_line_and_leaves_no_assembly_in_obj()
    {
        // Another IL weaver running before Async2 could leave IL the transform refuses; C# never
        // does, so make some: a jmp at the start of an async method of a copy of the library.
        var project = Path.Combine(workspace.Samples, "BrokenLibrary");
        Directory.CreateDirectory(project);
        foreach (var file in Directory.EnumerateFiles(Path.Combine(workspace.Samples, "Library")))
            File.Copy(file, Path.Combine(project, Path.GetFileName(file)));
        workspace.Dotnet(project, "build", "-c", Configuration).AssertSucceeded();
        var obj = Path.Combine(project, "obj", Configuration, "net10.0");
        var intermediate = Path.Combine(obj, "Library.dll");
        InsertJmp(Path.Combine(obj, "async2", "Library.dll"), intermediate, "Samples.Library.OrderService", "TotalAsync");

        var broken = workspace.Dotnet(project, "build", "-c", Configuration);

        Assert.NotEqual(0, broken.ExitCode);
        Assert.Matches(@"Orders\.cs\(\d+,\d+\): error ASYNC2101: Samples\.Library\.OrderService::TotalAsync at IL_0000: jmp", broken.Stdout);
        Assert.False(File.Exists(intermediate), "the unrewritten assembly was left in obj/, where a later build would copy it on");
        workspace.Dotnet(project, "build", "-c", Configuration).AssertSucceeded();
        AssertRewritten(Path.Combine(project, "bin", Configuration, "net10.0"), ["Library.dll"], runtimeBeside: false);
    }

    private static string Rid => System.Runtime.InteropServices.RuntimeInformation.RuntimeIdentifier;

    private CommandResult BuildApp() => workspace.Dotnet(workspace.Samples, "build", "App", "-c", Configuration).AssertSucceeded();

    private string ClassicTranscript()
    {
        var classic = workspace.Dotnet(workspace.ClassicSamples, "run", "--project", "App", "-c", Configuration, "-p:Async2Enabled=false").AssertSucceeded();
        Assert.DoesNotContain("Async2: rewrote", classic.Stdout);
        return classic.Stdout;
    }

    /// <summary><paramref name="runtimeBeside"/>: the folder is an app's (a library's own bin/ holds none of its package dependencies).</summary>
    private static void AssertRewritten(string folder, IEnumerable<string> assemblies, bool runtimeBeside = true)
    {
        foreach (var assembly in assemblies.Select(name => Path.Combine(folder, name)))
        {
            Assert.True(File.Exists(assembly), $"{assembly} is missing");
            Assert.Empty(RewrittenAssembly.AsyncFlaggedMethods(assembly));
            Assert.Empty(RewrittenAssembly.AsyncHelpersReferences(assembly));
        }
        if (runtimeBeside)
            Assert.True(File.Exists(Path.Combine(folder, "Async2.Runtime.dll")), $"Async2.Runtime.dll is not in {folder}");
    }

    private static bool IsReadyToRunImage(string assembly)
    {
        using var reader = new System.Reflection.PortableExecutable.PEReader(File.OpenRead(assembly));
        return reader.PEHeaders.CorHeader!.ManagedNativeHeaderDirectory.Size > 0;
    }

    private static bool ReferencesAsync2Runtime(string assembly)
    {
        using var module = ModuleDefinition.ReadModule(assembly);
        return module.AssemblyReferences.Any(reference => reference.Name == "Async2.Runtime");
    }

    private static IReadOnlyList<string> TrimWarnings(string buildOutput) =>
        Regex.Matches(buildOutput, @"warning (IL\d{4}):[^\[\r\n]*").Select(m => m.Value.Trim()).Distinct().Order(StringComparer.Ordinal).ToList();

    private static void InsertJmp(string compiled, string destination, string type, string method)
    {
        using var module = ModuleDefinition.ReadModule(compiled, new ReaderParameters { ReadSymbols = true, InMemory = true });
        var target = module.GetType(type).Methods.Single(m => m.Name == method);
        var il = target.Body.GetILProcessor();
        il.InsertBefore(target.Body.Instructions[0], il.Create(OpCodes.Jmp, target));
        module.Write(destination, new WriterParameters { WriteSymbols = true });
    }

    private IReadOnlyList<string> Entries(string package)
    {
        using var archive = ZipFile.OpenRead(Path.Combine(workspace.Feed, $"{package}.{workspace.Version}.nupkg"));
        return archive.Entries.Select(e => e.FullName).ToList();
    }

    private XDocument Nuspec(string package)
    {
        using var archive = ZipFile.OpenRead(Path.Combine(workspace.Feed, $"{package}.{workspace.Version}.nupkg"));
        using var stream = archive.GetEntry($"{package}.nuspec")!.Open();
        return XDocument.Load(stream);
    }
}
