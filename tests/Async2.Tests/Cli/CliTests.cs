using Async2.Rewriter;
using Async2.Tests.Corpus;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Xunit;
using static Async2.Tests.Cli.CliRun;

namespace Async2.Tests.Cli;

/// <summary>
/// The async2 command as a user runs it (a child process): what it prints, its exit code, what it
/// writes, and that it never touches its input.
/// </summary>
public sealed class CliTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("async2-cli-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);


    private static ProgramBuild Fixture(string name) =>
        ProgramBuilder.Build(name, [Path.Combine(TestEnvironment.FixturesFolder, name + ".cs")]);


    [Fact]
    public void Rewrite_writes_assembly_pdb_and_runtime_and_leaves_the_input_alone()
    {
        var input = Fixture("Throwing").RuntimeAsync;
        var before = Fingerprint(input);
        var output = Path.Combine(_folder, "out", "Throwing.dll");

        var (exitCode, stdout, stderr) = RunAsync2("rewrite", input, "-o", output);

        Assert.True(exitCode == 0, stderr);
        Assert.Contains("Program::Inner: rewritten (1 await(s)", stdout);
        Assert.Contains("2 method(s) rewritten, 0 left classic", stdout);
        Assert.Equal(before, Fingerprint(input));
        Assert.True(File.Exists(output));
        Assert.True(File.Exists(Path.ChangeExtension(output, ".pdb")));
        Assert.True(File.Exists(Path.Combine(_folder, "out", "Async2.Runtime.dll")));
        Assert.Empty(Directory.GetFileSystemEntries(Path.Combine(_folder, "out"), ".async2-*"));
    }

    [Theory]
    [InlineData("portable")]
    [InlineData("embedded")]
    public void Rewrite_is_reproducible(string debugType)
    {
        var input = ProgramBuilder.Compile("Throwing" + debugType, [Path.Combine(TestEnvironment.FixturesFolder, "Throwing.cs")], runtimeAsync: true, debugType: debugType);
        var first = Path.Combine(_folder, "first", "Throwing.dll");
        var second = Path.Combine(_folder, "second", "Throwing.dll");

        Assert.Equal(0, RunAsync2("rewrite", input, "-o", first).ExitCode);
        Assert.Equal(0, RunAsync2("rewrite", input, "-o", second).ExitCode);

        Assert.Equal(Fingerprint(first), Fingerprint(second));
        if (debugType == "portable")
            Assert.Equal(Fingerprint(Path.ChangeExtension(first, ".pdb")), Fingerprint(Path.ChangeExtension(second, ".pdb")));
    }

    [Fact]
    public void Rewritten_assembly_records_its_pdb_in_the_folder_the_input_recorded()
    {
        var input = Fixture("Throwing").RuntimeAsync;
        var recorded = AssemblyFile.RecordedPdbPath(input);
        Assert.True(Path.IsPathRooted(recorded), recorded); // the compiler's full path
        var output = Path.Combine(_folder, "out", "Renamed.dll");

        Assert.Equal(0, RunAsync2("rewrite", input, "-o", output).ExitCode);

        // Cecil alone wrote "Renamed.pdb": a debugger finding no .pdb beside the assembly had no build path to look in.
        Assert.Equal(Path.Combine(Path.GetDirectoryName(recorded)!, "Renamed.pdb"), AssemblyFile.RecordedPdbPath(output));
        Assert.True(AssemblyFile.PdbBelongsTo(output, Path.ChangeExtension(output, ".pdb")));
    }

    [Fact]
    public void Rewritten_output_runs_as_is_and_keeps_source_lines_in_stack_traces()
    {
        var input = Fixture("Throwing").RuntimeAsync;
        var output = Path.Combine(_folder, "Throwing.dll");
        Assert.Equal(0, RunAsync2("rewrite", input, "-o", output).ExitCode);
        File.Copy(ProgramBuilder.RuntimeConfigOf(input), ProgramBuilder.RuntimeConfigOf(output));

        var (exitCode, stdout, _) = ProgramRunner.RunDotnet([output, "x"], runtimeAsync: false);

        Assert.Equal(7, exitCode);
        Assert.Contains("InvalidOperationException: thrown after a suspension", stdout);
        Assert.Contains("Throwing.cs:line 11", stdout);
        Assert.Contains("Inner", stdout);
    }

    [Fact]
    public void Rewrite_keeps_an_embedded_pdb_embedded()
    {
        var input = ProgramBuilder.Compile("ThrowingEmbedded", [Path.Combine(TestEnvironment.FixturesFolder, "Throwing.cs")], runtimeAsync: true, debugType: "embedded");
        Assert.False(File.Exists(Path.ChangeExtension(input, ".pdb")));
        var output = Path.Combine(_folder, "ThrowingEmbedded.dll");

        var (exitCode, _, stderr) = RunAsync2("rewrite", input, "-o", output);
        Assert.True(exitCode == 0, stderr);
        File.Copy(ProgramBuilder.RuntimeConfigOf(input), ProgramBuilder.RuntimeConfigOf(output));
        var run = ProgramRunner.RunDotnet([output, "x"], runtimeAsync: false);

        Assert.False(File.Exists(Path.ChangeExtension(output, ".pdb")));
        using (var module = ModuleDefinition.ReadModule(output))
            Assert.Contains(module.GetDebugHeader().Entries, entry => entry.Directory.Type == ImageDebugType.EmbeddedPortablePdb);
        Assert.Equal(7, run.ExitCode);
        Assert.Contains("Throwing.cs:line 11", run.Stdout);
    }

    [Fact]
    public void Rewrite_refuses_a_file_that_is_not_an_assembly()
    {
        var input = Path.Combine(_folder, "notes.dll");
        File.WriteAllText(input, "not a PE file");
        var output = Path.Combine(_folder, "out.dll");

        var (exitCode, _, stderr) = RunAsync2("rewrite", input, "-o", output);

        Assert.Equal(1, exitCode);
        Assert.Contains("error ASYNC2001", stderr);
        Assert.Contains("not a .NET assembly", stderr);
        Assert.Equal("not a PE file", File.ReadAllText(input));
        Assert.False(File.Exists(output));
    }

    [Fact]
    public void Rewrite_refuses_a_missing_input_and_an_output_that_is_the_input()
    {
        var missing = RunAsync2("rewrite", Path.Combine(_folder, "missing.dll"), "-o", Path.Combine(_folder, "o.dll"));
        Assert.Equal(1, missing.ExitCode);
        Assert.Contains("does not exist", missing.Stderr);

        var input = Fixture("Throwing").RuntimeAsync;
        var copy = Path.Combine(_folder, "Throwing.dll");
        File.Copy(input, copy);
        var same = RunAsync2("rewrite", copy, "-o", copy);
        Assert.Equal(1, same.ExitCode);
        Assert.Contains("error ASYNC2002", same.Stderr);
        Assert.Equal(Fingerprint(input), Fingerprint(copy));
    }

    [Fact]
    public void Rewrite_refuses_an_output_whose_side_files_would_replace_the_inputs()
    {
        // The rewritten .pdb and .deps.json take the output's name: App.exe or App beside App.dll
        // would have replaced App.dll's own.
        var build = Fixture("Throwing");
        var input = Path.Combine(_folder, "App.dll");
        File.Copy(build.RuntimeAsync, input);
        File.Copy(Path.ChangeExtension(build.RuntimeAsync, ".pdb"), Path.ChangeExtension(input, ".pdb"));
        File.WriteAllText(Path.ChangeExtension(input, ".deps.json"), "{}");
        var before = Directory.GetFiles(_folder).ToDictionary(f => f, Fingerprint);

        foreach (var output in new[] { "App.exe", "App", "App.pdb" })
        {
            var (exitCode, _, stderr) = RunAsync2("rewrite", input, "-o", Path.Combine(_folder, output));
            Assert.Equal(1, exitCode);
            Assert.Contains("error ASYNC2002", stderr);
            Assert.Contains("the input's symbols (.pdb); Async2 never overwrites its input", stderr);
            Assert.Equal(before, Directory.GetFiles(_folder).ToDictionary(f => f, Fingerprint));
            Assert.Empty(Directory.GetDirectories(_folder));
        }
    }

    [Fact]
    public void Rewrite_refuses_an_output_its_side_files_would_take_or_a_device()
    {
        var input = Fixture("Throwing").RuntimeAsync;
        foreach (var output in new[] { Path.Combine(_folder, "out", "Named.pdb"), Path.Combine(_folder, "out", "Async2.Runtime.dll") })
        {
            var (exitCode, _, stderr) = RunAsync2("rewrite", input, "-o", output);
            Assert.Equal(1, exitCode);
            Assert.Contains("error ASYNC2003", stderr);
            Assert.Contains("beside the assembly under this very name", stderr);
            Assert.False(Directory.Exists(Path.Combine(_folder, "out")));
        }

        if (!OperatingSystem.IsWindows())
        {
            var (exitCode, _, stderr) = RunAsync2("rewrite", input, "-o", "/dev/null");
            Assert.Equal(1, exitCode);
            Assert.Contains("error ASYNC2003", stderr);
            Assert.Contains("it is a device, not a file", stderr);
            Assert.False(File.Exists("/dev/null.pdb"));
        }
    }

    [Theory]
    [InlineData(new string[0], "Required argument missing for command: 'rewrite'")]
    [InlineData(new[] { "in.dll" }, "Option '--output' is required")]
    [InlineData(new[] { "in.dll", "-o" }, "Required argument missing for option: '-o'")]
    [InlineData(new[] { "in.dll", "--frobnicate", "-o", "out.dll" }, "Unrecognized command or argument '--frobnicate'")]
    [InlineData(new[] { "in.dll", "other.dll", "-o", "out.dll" }, "Unrecognized command or argument 'other.dll'")]
    [InlineData(new[] { "--frobnicate", "-o", "out.dll" }, "Unrecognized option '--frobnicate'")]
    [InlineData(new[] { "in.dll", "-o", "" }, "The path given for --output is empty.")]
    [InlineData(new[] { "", "-o", "out.dll" }, "The path given for <in.dll> is empty.")]
    public void Rewrite_usage_errors_exit_2_with_a_fix(string[] args, string problem)
    {
        var (exitCode, stdout, stderr) = RunAsync2(["rewrite", .. args]);
        Assert.Equal(2, exitCode);
        Assert.Contains("error: " + problem, stderr);
        Assert.Contains("fix: see 'async2 rewrite --help'", stderr);
        Assert.Empty(stdout);
    }

    [Fact]
    public void Rewrite_of_an_assembly_instrumented_for_test_coverage_warns_that_its_method_numbers_move()
    {
        // The instrumentation names each method by its MethodDef row, a number the rewrite moves: a
        // payload printed the method at that row, "F" for Main (found by a helper). Async2.Build
        // builds such a project classic; a rewrite by hand warns.
        var source = Path.Combine(_folder, "Instrumented.cs");
        File.WriteAllText(source, """
            // csc: /instrument:TestCoverage
            System.Console.WriteLine(await A.F());
            class A { public static async System.Threading.Tasks.Task<int> F() { await System.Threading.Tasks.Task.Yield(); return 1; } }
            """ + CoverageInstrumentationStub.Source);
        var input = ProgramBuilder.Compile("Instrumented", [source], runtimeAsync: true);
        var output = Path.Combine(_folder, "instrumented-out", "Instrumented.dll");

        var (exitCode, stdout, stderr) = RunAsync2("rewrite", input, "-o", output);

        Assert.True(exitCode == 0, stderr);
        Assert.Contains($"warning ASYNC2010: {input} is instrumented for test coverage (/instrument:TestCoverage", stderr);
        Assert.Contains("Instrumented.dll: 2 method(s) rewritten", stdout);
    }

    [Fact]
    public void A_file_whose_name_starts_with_a_dash_is_rewritten_when_named_after_double_dash()
    {
        // PathArgument refuses a value that looks like an option (an unknown one, or a mistyped one);
        // after --, which ends the options, it refused the file too.
        var folder = Directory.CreateDirectory(Path.Combine(_folder, "dash")).FullName;
        File.Copy(Fixture("Throwing").RuntimeAsync, Path.Combine(folder, "-Throwing.dll"));

        var (exitCode, stdout, stderr) = ProgramRunner.Run(TestEnvironment.DotnetHost, [TestEnvironment.CliPath, "rewrite", "-o", "out/Throwing.dll", "--", "-Throwing.dll"],
            workingDirectory: folder);

        Assert.True(exitCode == 0, stderr);
        Assert.Contains("method(s) rewritten", stdout);
        Assert.True(File.Exists(Path.Combine(folder, "out", "Throwing.dll")));
    }

    [Theory]
    [InlineData(new string[0], "--version", "rewrite", "run", "demo", "bench", "Exit codes:")]
    [InlineData(new[] { "rewrite" }, "<in.dll>", "-o, --output <out.dll>", "Exit codes:")]
    [InlineData(new[] { "run" }, "<app.dll>", "<args>", "ASYNC2_CACHE", "Exit codes:")]
    [InlineData(new[] { "demo" }, "<n>", "Exit codes:")]
    [InlineData(new[] { "bench" }, "--quick", "-o, --output <folder>", "--only <names>", "--no-charts", "Exit codes:")]
    public void Help_on_every_command_exits_0_and_lists_its_arguments_and_options(string[] command, params string[] expected)
    {
        foreach (var help in (string[])["--help", "-h"])
        {
            var (exitCode, stdout, stderr) = RunAsync2([.. command, help]);

            Assert.True(exitCode == 0, stderr);
            Assert.Contains($"async2 {string.Join(' ', command)}".TrimEnd() + " ", stdout);
            Assert.Contains("-h, --help", stdout);
            foreach (var text in expected)
                Assert.Contains(text, stdout);
            Assert.Empty(stderr);
        }
    }

    [Fact]
    public void Version_prints_the_version()
    {
        var (exitCode, stdout, _) = RunAsync2("--version");
        Assert.Equal(0, exitCode);
        Assert.Matches(@"^\d+\.\d+\.\d+", stdout);
    }

    [Fact]
    public void Rewrite_counts_what_it_left_classic_as_inspect_lists_it()
    {
        var input = Fixture("AsyncIterator").RuntimeAsync;

        var rewrite = RunAsync2("rewrite", input, "-o", Path.Combine(_folder, "AsyncIterator.dll"));
        var inspect = RunAsync2("inspect", input);

        Assert.True(rewrite.ExitCode == 0, rewrite.Stderr);
        Assert.Contains("  Program::Numbers: left classic: compiled as a classic state machine (async void, an async iterator", rewrite.Stdout);
        Assert.Contains("2 method(s) rewritten, 1 left classic.", rewrite.Stdout);
        Assert.True(inspect.ExitCode == 0, inspect.Stderr);
        Assert.Matches(@"(?m)^method Program::Numbers: classic, compiled as a classic state machine \(async void, an async iterator", inspect.Stdout);
    }

    [Theory]
    [InlineData("rewrite")]
    [InlineData("run")]
    [InlineData("verify")]
    [InlineData("inspect")]
    public void A_directory_given_as_the_assembly_is_called_a_directory(string command)
    {
        string[] args = command == "rewrite" ? [command, _folder, "-o", Path.Combine(_folder, "out", "App.dll")] : [command, _folder];

        var (exitCode, _, stderr) = RunAsync2(args);

        Assert.Equal(1, exitCode);
        Assert.Contains("it is a directory, not a file. Pass the path of a .NET assembly (.dll) in it", stderr);
        Assert.DoesNotContain("does not exist", stderr);
    }

    [Fact]
    public void An_unknown_command_is_named_unknown_and_the_commands_are_listed()
    {
        var (exitCode, stdout, stderr) = RunAsync2("frobnicate", "app.dll");

        Assert.Equal(2, exitCode);
        Assert.Matches(@"error: 'frobnicate' is not an async2 command\. The commands are: rewrite, run, verify, inspect, demo, bench(, \w+)*\.", stderr);
        Assert.Contains("fix: see 'async2 --help'", stderr);
        Assert.DoesNotContain("Required command was not provided", stderr);
        Assert.Empty(stdout);
    }

    [Theory]
    [InlineData(new string[0], "Required command was not provided", "async2 --help")]
    [InlineData(new[] { "run" }, "Required argument missing for command: 'run'", "async2 run --help")]
    [InlineData(new[] { "run", "--frobnicate", "app.dll" }, "Unrecognized option '--frobnicate'", "async2 run --help")]
    [InlineData(new[] { "demo", "many" }, "'many' is not a valid n", "async2 demo --help")]
    [InlineData(new[] { "demo", "41" }, "'41' is not a valid n", "async2 demo --help")]
    [InlineData(new[] { "bench", "--only", "fib,nope" }, "'nope' is not a benchmark", "async2 bench --help")]
    [InlineData(new[] { "bench", "--only", "" }, "--only names no benchmark", "async2 bench --help")]
    [InlineData(new[] { "bench", "--frobnicate" }, "Unrecognized command or argument '--frobnicate'", "async2 bench --help")]
    [InlineData(new[] { "bench", "--output" }, "Required argument missing for option: '--output'", "async2 bench --help")]
    [InlineData(new[] { "runtime", "" }, "'' is not a .NET release: write 11", "async2 runtime --help")]
    [InlineData(new[] { "runtime", "eleven" }, "'eleven' is not a .NET release: write 11", "async2 runtime --help")]
    [InlineData(new[] { "run", "--runtime", "11.x", "app.dll" }, "'11.x' is not a .NET release: write 11", "async2 run --help")]
    public void Usage_errors_go_to_stderr_with_exit_code_2(string[] args, string problem, string help)
    {
        var (exitCode, stdout, stderr) = RunAsync2(args);
        Assert.Equal(2, exitCode);
        Assert.Contains("error: " + problem, stderr);
        Assert.Contains($"fix: see '{help}'", stderr);
        Assert.Empty(stdout);
    }

    [Theory]
    [InlineData("folder", "the output path is a folder")]
    [InlineData("not-yet/", "the output path is a folder")]
    [InlineData("link-to-input-folder", "link-to-input-folder/rewritten/Throwing.dll")] // the fix it suggests is not the input
    [InlineData("a-file/out.dll", "is a file, so no folder can be created there")]
    [InlineData("link-to-input-folder/Throwing.dll", "the output path is the input path (through a symbolic link)")]
    public void Rewrite_refuses_an_output_path_it_cannot_use_and_writes_nothing(string output, string problem)
    {
        var input = Fixture("Throwing").RuntimeAsync;
        var before = Fingerprint(input);
        Directory.CreateDirectory(Path.Combine(_folder, "folder"));
        File.WriteAllText(Path.Combine(_folder, "a-file"), "");
        Directory.CreateSymbolicLink(Path.Combine(_folder, "link-to-input-folder"), Path.GetDirectoryName(input)!);
        var entriesBefore = Directory.GetFileSystemEntries(_folder, "*", SearchOption.AllDirectories).Length;

        var (exitCode, _, stderr) = RunAsync2("rewrite", input, "-o", Path.Combine(_folder, output));

        Assert.Equal(1, exitCode);
        Assert.Contains(problem, stderr);
        Assert.Matches("ASYNC200[23]", stderr);
        Assert.Equal(before, Fingerprint(input));
        Assert.Equal(entriesBefore, Directory.GetFileSystemEntries(_folder, "*", SearchOption.AllDirectories).Length);
    }

    [Fact]
    public void Run_refuses_a_file_that_is_not_an_assembly()
    {
        var launcher = Path.Combine(_folder, "App");
        File.WriteAllBytes(launcher, [0x7f, (byte)'E', (byte)'L', (byte)'F', 2, 1, 1, 0]);

        var (exitCode, _, stderr) = RunAsync2("run", launcher);

        Assert.Equal(1, exitCode);
        Assert.Contains("it is not a .NET assembly", stderr);
        Assert.Contains("pass the app's main .dll", stderr);
    }

    [Fact]
    public void Run_refuses_an_assembly_without_a_runtimeconfig_before_copying_anything()
    {
        // A library, or an app's assembly copied alone: the host would have failed in the cache's copy (exit 131).
        var library = Path.Combine(_folder, "Lib.dll");
        File.Copy(Fixture("Throwing").RuntimeAsync, library);

        var (exitCode, _, stderr) = RunAsync2("run", library);

        Assert.Equal(1, exitCode);
        Assert.Contains("there is no Lib.runtimeconfig.json beside it", stderr);
        Assert.Contains("pass the main .dll of an app", stderr);
    }

    [Fact]
    public void Run_with_a_cache_it_cannot_create_says_where_and_what_to_do()
    {
        var file = Path.Combine(_folder, "a-file");
        File.WriteAllText(file, "");

        var (exitCode, _, stderr) = RunWithCache(Path.Combine(file, "cache"), Fixture("Throwing").RuntimeAsync);

        Assert.Equal(1, exitCode);
        Assert.Contains("cannot make the rewritten copy", stderr);
        Assert.Contains("set ASYNC2_CACHE to a folder you can write to", stderr);
        Assert.DoesNotContain("   at ", stderr);
    }

    [Fact]
    public void Unknown_command_is_a_usage_error()
    {
        var (exitCode, _, stderr) = RunAsync2("frobnicate");
        Assert.Equal(2, exitCode);
        Assert.Contains("error: 'frobnicate' is not an async2 command.", stderr);
    }

    [Fact]
    public void Rewrite_of_an_app_writes_its_deps_json_listing_the_runtime_so_the_copied_app_runs()
    {
        // The app as the SDK builds it, with a .deps.json; the user copies it and rewrites its dll into the copy.
        var input = Fixture("Throwing").RuntimeAsync;
        var app = Path.Combine(_folder, "app");
        Directory.CreateDirectory(app);
        File.Copy(input, Path.Combine(app, "Throwing.dll"));
        File.Copy(ProgramBuilder.RuntimeConfigOf(input), Path.Combine(app, "Throwing.runtimeconfig.json"));
        File.WriteAllText(Path.Combine(app, "Throwing.deps.json"), """
            {
              "runtimeTarget": { "name": ".NETCoreApp,Version=v10.0", "signature": "" },
              "compilationOptions": {},
              "targets": { ".NETCoreApp,Version=v10.0": { "Throwing/1.0.0": { "runtime": { "Throwing.dll": {} } } } },
              "libraries": { "Throwing/1.0.0": { "type": "project", "serviceable": false, "sha512": "" } }
            }
            """);
        var copy = Path.Combine(_folder, "copy");
        Directory.CreateDirectory(copy);
        foreach (var file in Directory.GetFiles(app))
            File.Copy(file, Path.Combine(copy, Path.GetFileName(file)));
        var depsBefore = Fingerprint(Path.Combine(app, "Throwing.deps.json"));

        var (exitCode, _, stderr) = RunAsync2("rewrite", Path.Combine(app, "Throwing.dll"), "-o", Path.Combine(copy, "Throwing.dll"));
        Assert.True(exitCode == 0, stderr);
        var run = ProgramRunner.RunDotnet([Path.Combine(copy, "Throwing.dll"), "x"], runtimeAsync: false);

        Assert.True(run.ExitCode == 7, run.Stdout + run.Stderr);
        Assert.Contains("Async2.Runtime", File.ReadAllText(Path.Combine(copy, "Throwing.deps.json")));
        Assert.Equal(depsBefore, Fingerprint(Path.Combine(app, "Throwing.deps.json")));
    }

    [Theory]
    [InlineData("[]", "this .deps.json is not a JSON object")]
    [InlineData("{ \"targets\": [1, 2", "this .deps.json is not valid JSON")]
    public void Rewrite_of_an_app_whose_deps_json_is_broken_names_that_file_and_writes_nothing(string deps, string message)
    {
        // A root that is no object escaped as ASYNC2900 ("a bug in Async2"), and invalid JSON was
        // reported at the scratch copy's path, already deleted (found in review).
        var app = Path.Combine(_folder, "broken");
        Directory.CreateDirectory(app);
        File.Copy(Fixture("Throwing").RuntimeAsync, Path.Combine(app, "Throwing.dll"));
        var inputDeps = Path.Combine(app, "Throwing.deps.json");
        File.WriteAllText(inputDeps, deps);
        var output = Path.Combine(_folder, "broken-out", "Throwing.dll");

        var (exitCode, _, stderr) = RunAsync2("rewrite", Path.Combine(app, "Throwing.dll"), "-o", output);

        Assert.Equal(1, exitCode);
        Assert.Contains($"error ASYNC2001: {inputDeps}: {message}", stderr);
        Assert.False(File.Exists(output));
        Assert.Equal(deps, File.ReadAllText(inputDeps));
    }

    [Fact]
    public void Rewrite_of_a_ReadyToRun_image_writes_plain_IL_that_runs()
    {
        // What PublishReadyToRun changes in the headers: the CLI flags say "IL library" instead of
        // "IL only", and the machine is AMD64 XOR the Linux key. (The native code itself is ignored.)
        var input = Fixture("Throwing").RuntimeAsync;
        var image = File.ReadAllBytes(input);
        var headers = new System.Reflection.PortableExecutable.PEHeaders(new MemoryStream(image));
        BitConverter.TryWriteBytes(image.AsSpan(headers.CorHeaderStartOffset + 16), 0x4 /* ILLibrary */);
        BitConverter.TryWriteBytes(image.AsSpan(headers.CoffHeaderStartOffset), (ushort)(0x8664 ^ 0x7B79));
        var readyToRun = Path.Combine(_folder, "r2r", "Throwing.dll");
        Directory.CreateDirectory(Path.GetDirectoryName(readyToRun)!);
        File.WriteAllBytes(readyToRun, image);
        var output = Path.Combine(_folder, "out", "Throwing.dll");

        var (exitCode, _, stderr) = RunAsync2("rewrite", readyToRun, "-o", output);
        Assert.True(exitCode == 0, stderr);
        File.Copy(ProgramBuilder.RuntimeConfigOf(input), ProgramBuilder.RuntimeConfigOf(output));
        var run = ProgramRunner.RunDotnet([output, "x"], runtimeAsync: false);

        Assert.Equal(7, run.ExitCode);
        Assert.Contains("thrown after a suspension", run.Stdout);
    }

    [Theory]
    [InlineData("classic", "no runtime-async methods")]
    [InlineData("rewritten", "already rewritten by Async2")]
    public void Rewrite_of_an_assembly_without_runtime_async_methods_says_why_and_writes_nothing(string build, string why)
    {
        var fixture = Fixture("Throwing");
        var input = build == "classic" ? fixture.Classic : fixture.Rewritten;
        var output = Path.Combine(_folder, "out.dll");

        var (exitCode, stdout, _) = RunAsync2("rewrite", input, "-o", output);

        Assert.Equal(0, exitCode);
        Assert.Contains(why, stdout);
        Assert.False(File.Exists(output));
    }

    [Fact]
    public void Rewrite_and_inspect_of_an_assembly_for_an_older_framework_say_it_has_no_runtime_async()
    {
        // What a net8.0 build of a project with runtime-async=on is: every async method classic,
        // and a [TargetFramework] naming .NET 8 (the compiler emits runtime-async code for .NET 10 on).
        var older = Path.Combine(_folder, "Older.dll");
        using (var module = ModuleDefinition.ReadModule(Fixture("Throwing").Classic))
        {
            var constructor = module.ImportReference(typeof(System.Runtime.Versioning.TargetFrameworkAttribute).GetConstructor([typeof(string)]));
            var targetFramework = new CustomAttribute(constructor);
            targetFramework.ConstructorArguments.Add(new CustomAttributeArgument(module.TypeSystem.String, ".NETCoreApp,Version=v8.0"));
            var attributes = module.Assembly.CustomAttributes;
            foreach (var existing in attributes.Where(a => a.AttributeType.Name == "TargetFrameworkAttribute").ToList())
                attributes.Remove(existing);
            attributes.Add(targetFramework);
            module.Write(older);
        }
        var output = Path.Combine(_folder, "out.dll");

        var rewrite = RunAsync2("rewrite", older, "-o", output);
        var inspect = RunAsync2("inspect", older);

        Assert.Equal(0, rewrite.ExitCode);
        Assert.Contains("no runtime-async methods (it targets .NETCoreApp,Version=v8.0, and the compiler emits runtime-async code only for .NET 10 and later: target net10.0)", rewrite.Stdout);
        Assert.False(File.Exists(output));
        Assert.Equal(0, inspect.ExitCode);
        Assert.Contains("classic, compiled as a classic state machine: the assembly targets .NETCoreApp,Version=v8.0", inspect.Stdout);
        Assert.DoesNotContain("async void, an async iterator", inspect.Stdout);
    }

    [Fact]
    public void Rewrite_refuses_ref_structs_kept_across_awaits_and_accepts_them_beside_awaits()
    {
        // Runtime-async only: the classic compiler rejects the program.
        var input = ProgramBuilder.Compile("RefStructsAcrossAwaits", [Path.Combine(TestEnvironment.FixturesFolder, "RefStructsAcrossAwaits.cs")], runtimeAsync: true);
        var output = Path.Combine(_folder, "out.dll");

        var (exitCode, _, stderr) = RunAsync2("rewrite", input, "-o", output);

        Assert.Equal(1, exitCode);
        Assert.Contains("error ASYNC2102: RefStructsAcrossAwaits: RefStructsAcrossAwaits::SpanOnTheStack at IL_", stderr);
        Assert.Contains("a ref struct (System.ReadOnlySpan`1<System.Char>) computed before this await is used after it", stderr);
        Assert.Matches(@"RefStructsAcrossAwaits::SpanLocal at IL_[0-9a-f]{4}: local 'text', a ref struct \(System.ReadOnlySpan`1<System.Char>\), is live across this await", stderr);
        Assert.Matches(@"RefStructsAcrossAwaits::UsingRefStruct at IL_[0-9a-f]{4}: local 'scope', a ref struct \(Scope\), is live across this await", stderr);
        // Located where the compiler put the await, though the body has moved into the variant by then.
        Assert.Matches(@"RefStructsAcrossAwaits\.cs\(\d+,\d+\): error ASYNC2102: RefStructsAcrossAwaits: RefStructsAcrossAwaits::SpanLocal", stderr);
        Assert.DoesNotContain("Allowed", stderr);
        Assert.Equal(3, stderr.Split('\n').Count(line => line.Contains("ASYNC2102")));
        Assert.False(File.Exists(output));
    }

    [Fact]
    public void Rewrite_reports_an_unsupported_instruction_with_code_method_and_offset_and_writes_nothing()
    {
        // C# never puts a jmp in an async method (other compilers and IL weavers might): make one.
        var input = Fixture("Throwing").RuntimeAsync;
        var crafted = Path.Combine(_folder, "Crafted.dll");
        using (var module = ModuleDefinition.ReadModule(input))
        {
            var inner = module.GetType("Program").Methods.Single(m => m.Name == "Inner");
            var il = inner.Body.GetILProcessor();
            il.InsertBefore(inner.Body.Instructions[0], il.Create(OpCodes.Jmp, inner));
            module.Write(crafted);
        }
        var output = Path.Combine(_folder, "out.dll");

        var (exitCode, _, stderr) = RunAsync2("rewrite", crafted, "-o", output);

        Assert.Equal(1, exitCode);
        Assert.Matches(@"error ASYNC2101: Throwing: Program::Inner at IL_0000: jmp", stderr);
        Assert.Contains("nothing was written", stderr);
        Assert.False(File.Exists(output));
    }

    [Fact]
    public void Rewrite_refuses_an_input_or_a_reference_rewritten_by_another_version_of_Async2()
    {
        // A library rewritten by Async2 0.3 (contract 2) names Continuation.State, which this
        // runtime no longer has: beside an app rewritten now it failed at its first call with
        // MissingFieldException, and rewriting it again said "already rewritten".
        var sources = Path.Combine(MultiAssemblyBuilder.ProgramsFolder, "calls_across");
        string Compile(string name, IReadOnlyList<string> references, bool library) => ProgramBuilder.Compile(name,
            [.. Directory.GetFiles(Path.Combine(sources, name), "*.cs", SearchOption.AllDirectories).Order(StringComparer.Ordinal)],
            runtimeAsync: true, references, library);
        var core = Compile("Core", [], library: true);
        var app = Compile("App", [core], library: false);
        var rewrittenCore = Path.Combine(_folder, "now", "Core.dll");
        Assert.Equal(0, RunAsync2("rewrite", core, "-o", rewrittenCore).ExitCode);
        var olderCore = Path.Combine(_folder, "older", "Core.dll");
        Directory.CreateDirectory(Path.GetDirectoryName(olderCore)!);
        using (var module = ModuleDefinition.ReadModule(rewrittenCore))
        {
            var mark = module.Assembly.CustomAttributes.Single(a => a.AttributeType.Name == "RewrittenByAsync2Attribute");
            mark.ConstructorArguments[0] = new CustomAttributeArgument(module.TypeSystem.Int32, 2);
            mark.ConstructorArguments[1] = new CustomAttributeArgument(module.TypeSystem.String, "0.3.0.0");
            module.Write(olderCore);
        }

        var again = RunAsync2("rewrite", olderCore, "-o", Path.Combine(_folder, "again", "Core.dll"));
        var appOutput = Path.Combine(_folder, "app", "App.dll");
        var beside = RunAsync2("rewrite", app, "-r", olderCore, "-o", appOutput);
        var besideNow = RunAsync2("rewrite", app, "-r", rewrittenCore, "-o", Path.Combine(_folder, "app-now", "App.dll"));

        Assert.Equal(1, again.ExitCode);
        Assert.Contains("error ASYNC2007: Core: it was rewritten by Async2 0.3.0.0 (contract 2); this is Async2 ", again.Stderr);
        Assert.Contains("Rebuild it from its source with this version of Async2", again.Stderr);
        Assert.Equal(1, beside.ExitCode);
        Assert.Contains("error ASYNC2007: App: it references Core, which was rewritten by Async2 0.3.0.0 (contract 2)", beside.Stderr);
        Assert.False(File.Exists(appOutput));
        Assert.True(besideNow.ExitCode == 0, besideNow.Stderr);
    }

    [Fact]
    public void Rewrite_reports_an_exception_it_did_not_expect_as_an_internal_error_naming_the_method_and_writes_nothing()
    {
        // IL no compiler emits (a read of the local after the method's last, in the short form that
        // names it by its opcode alone) makes the rewriter fail deep inside: it used to escape as an
        // unhandled exception (exit 134; in a build, MSBuild's "task failed unexpectedly" with no method named).
        var input = Fixture("Throwing").RuntimeAsync;
        var crafted = Path.Combine(_folder, "Crafted.dll");
        using (var module = ModuleDefinition.ReadModule(input))
        {
            var inner = module.GetType("Program").Methods.Single(m => m.Name == "Inner");
            var il = inner.Body.GetILProcessor();
            var pastTheLast = new[] { OpCodes.Ldloc_0, OpCodes.Ldloc_1, OpCodes.Ldloc_2, OpCodes.Ldloc_3 }[inner.Body.Variables.Count];
            il.InsertBefore(inner.Body.Instructions[0], il.Create(OpCodes.Pop));
            il.InsertBefore(inner.Body.Instructions[0], il.Create(pastTheLast));
            module.Write(crafted);
        }
        var output = Path.Combine(_folder, "out.dll");

        var (exitCode, stdout, stderr) = RunAsync2("rewrite", crafted, "-o", output);

        Assert.Equal(1, exitCode);
        Assert.Contains("error ASYNC2900: Throwing: Program::Inner: Async2 failed with System.ArgumentOutOfRangeException", stderr);
        Assert.Contains("This is a bug in Async2, or IL that no compiler emits: please report it with the assembly", stderr);
        Assert.Contains("compile this method as classic async with [RuntimeAsyncMethodGeneration(false)]", stderr);
        Assert.Contains("nothing was written", stderr);
        Assert.DoesNotContain("   at ", stderr + stdout);
        Assert.False(File.Exists(output));
    }

    [Fact]
    public void Rewrite_reports_a_managed_pointer_on_the_stack_across_an_await()
    {
        // C# never produces this shape, so make it: push &array[0] before `await Task.Yield()` and pop it
        // after the await's GetResult, where its completed and suspended paths have joined.
        var input = Fixture("Throwing").RuntimeAsync;
        var crafted = Path.Combine(_folder, "Crafted.dll");
        using (var module = ModuleDefinition.ReadModule(input))
        {
            var inner = module.GetType("Program").Methods.Single(m => m.Name == "Inner");
            var il = inner.Body.GetILProcessor();
            var await = inner.Body.Instructions.First(i => i.Operand is MethodReference { DeclaringType.Name: "AsyncHelpers" });
            var first = inner.Body.Instructions[0];
            var array = new VariableDefinition(new ArrayType(module.TypeSystem.Int32));
            inner.Body.Variables.Add(array);
            il.InsertBefore(first, il.Create(OpCodes.Ldc_I4_1));
            il.InsertBefore(first, il.Create(OpCodes.Newarr, module.TypeSystem.Int32));
            il.InsertBefore(first, il.Create(OpCodes.Stloc, array));
            il.InsertBefore(first, il.Create(OpCodes.Ldloc, array));
            il.InsertBefore(first, il.Create(OpCodes.Ldc_I4_0));
            il.InsertBefore(first, il.Create(OpCodes.Ldelema, module.TypeSystem.Int32));
            var getResult = inner.Body.Instructions.SkipWhile(i => i != await).First(i => i.Operand is MethodReference { Name: "GetResult" });
            il.InsertAfter(getResult, il.Create(OpCodes.Pop));
            module.Write(crafted);
        }

        var (exitCode, _, stderr) = RunAsync2("rewrite", crafted, "-o", Path.Combine(_folder, "out.dll"));

        Assert.Equal(1, exitCode);
        Assert.Matches(@"error ASYNC2102: Throwing: Program::Inner at IL_[0-9a-f]{4}: a managed pointer", stderr);
        Assert.False(File.Exists(Path.Combine(_folder, "out.dll")));
    }

    [Fact]
    public void Run_rewrites_into_the_cache_once_and_returns_the_apps_exit_code()
    {
        var build = Fixture("Throwing");
        var cache = Path.Combine(_folder, "cache");
        var first = RunWithCache(cache, build.RuntimeAsync, "x");
        Assert.Equal(7, first.ExitCode);
        Assert.Contains("thrown after a suspension", first.Stdout);
        var entries = Directory.GetDirectories(cache);
        Assert.Single(entries);
        var stamp = Directory.GetLastWriteTimeUtc(entries[0]);

        var second = RunWithCache(cache, build.RuntimeAsync);
        Assert.Equal(0, second.ExitCode);
        Assert.Equal("no exception\n", second.Stdout.ReplaceLineEndings("\n"));
        Assert.Equal(entries, Directory.GetDirectories(cache));
        Assert.Equal(stamp, Directory.GetLastWriteTimeUtc(entries[0]));
    }

    [Fact]
    public void Run_rewrites_again_when_any_file_of_the_app_changed()
    {
        // Rebuilding an app may change only a classic library, a content file or runtimeconfig.json.
        var dll = AppFolder("app");
        var config = ProgramBuilder.RuntimeConfigOf(dll);
        var cache = Path.Combine(_folder, "cache");
        Assert.Equal(0, RunWithCache(cache, dll).ExitCode);
        var first = Directory.GetDirectories(cache).Single();

        File.WriteAllText(config, File.ReadAllText(config).Replace("\"tfm\"", "\"configProperties\": { \"Changed\": true },\n    \"tfm\""));
        Assert.Equal(0, RunWithCache(cache, dll).ExitCode);

        var second = Assert.Single(Directory.GetDirectories(cache), entry => entry != first);
        Assert.Equal(File.ReadAllText(config), File.ReadAllText(ProgramBuilder.RuntimeConfigOf(Path.Combine(second, Path.GetFileName(dll)))));
    }

    [Fact]
    public void Run_tells_apps_apart_by_their_files_contents_not_their_sizes_and_times()
    {
        // Two extracted copies of an app whose files have the same sizes and times written (archives
        // and reproducible builds fix the times) shared one cache entry: the second ran with the
        // first's files (found by a CLI hunt).
        var cache = Path.Combine(_folder, "cache");
        var entries = new List<string>();
        foreach (var (name, data) in new[] { ("first", "port=5000"), ("second", "port=5001") })
        {
            var dll = AppFolder(name);
            File.WriteAllText(Path.Combine(Path.GetDirectoryName(dll)!, "data.txt"), data);
            foreach (var file in Directory.GetFiles(Path.GetDirectoryName(dll)!))
                File.SetLastWriteTimeUtc(file, new DateTime(1980, 1, 1, 0, 0, 0, DateTimeKind.Utc));

            Assert.Equal(0, RunWithCache(cache, dll).ExitCode);

            var entry = Assert.Single(Directory.GetDirectories(cache), entry => !entries.Contains(entry));
            Assert.Equal(data, File.ReadAllText(Path.Combine(entry, "data.txt")));
            entries.Add(entry);
        }
    }

    [Fact]
    public void Run_and_rewrite_take_an_assembly_named_by_a_symbolic_link()
    {
        // A link was measured by its own length, so the assembly it leads to was called truncated.
        var dll = AppFolder("linked");
        var link = Path.Combine(_folder, "link", Path.GetFileName(dll));
        Directory.CreateDirectory(Path.GetDirectoryName(link)!);
        File.CreateSymbolicLink(link, dll);
        File.Copy(ProgramBuilder.RuntimeConfigOf(dll), ProgramBuilder.RuntimeConfigOf(link));

        var run = RunWithCache(Path.Combine(_folder, "cache"), link);
        var rewrite = RunAsync2("rewrite", link, "-o", Path.Combine(_folder, "out", "Throwing.dll"));

        Assert.True(run.ExitCode == 0, run.Stderr);
        Assert.Equal("no exception\n", run.Stdout.ReplaceLineEndings("\n"));
        Assert.True(rewrite.ExitCode == 0, rewrite.Stderr);
    }

    [Fact]
    public void Run_rewrites_the_runtime_async_assemblies_in_the_apps_subfolders()
    {
        // A NuGet package's runtimes/<rid>/lib/ assembly, or a plugin folder's, was copied as compiled,
        // and the stock runtime refused it (TypeLoadException; found by a CLI hunt).
        // One copy per runtime identifier, under one name, as packages lay them out.
        var dll = AppFolder("nested");
        var app = Path.GetDirectoryName(dll)!;
        var nested = new[] { "linux-x64", "win-x64" }.Select(rid => Path.Combine(app, "runtimes", rid, "lib", "net10.0", "Nested.dll")).ToList();
        foreach (var copy in nested)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(copy)!);
            File.Copy(dll, copy);
        }

        var run = RunWithCache(Path.Combine(_folder, "cache"), dll);

        Assert.True(run.ExitCode == 0, run.Stderr);
        var entry = Assert.Single(Directory.GetDirectories(Path.Combine(_folder, "cache")));
        foreach (var copy in nested)
        {
            var inEntry = Path.Combine(entry, Path.GetRelativePath(app, copy));
            Assert.NotNull(AssemblyFile.RuntimeAsyncMvid(copy));
            Assert.Null(AssemblyFile.RuntimeAsyncMvid(inEntry));
            Assert.False(File.Exists(Path.Combine(Path.GetDirectoryName(inEntry)!, "Async2.Runtime.dll")), "Async2.Runtime.dll beside a subfolder's assembly");
        }
        Assert.True(File.Exists(Path.Combine(entry, "Async2.Runtime.dll")));
    }

    [Fact]
    public void Run_of_an_app_whose_folder_holds_a_file_it_cannot_read_names_the_folder_not_the_cache()
    {
        // A link leading nowhere beside the app got "set ASYNC2_CACHE to a folder you can write to".
        var dll = AppFolder("dangling");
        File.CreateSymbolicLink(Path.Combine(Path.GetDirectoryName(dll)!, "latest.log"), Path.Combine(_folder, "nowhere", "log.txt"));

        var (exitCode, stdout, stderr) = RunWithCache(Path.Combine(_folder, "cache"), dll);

        Assert.Equal(1, exitCode);
        Assert.Contains($"error ASYNC2001: {Path.GetDirectoryName(dll)}: run copies the app's whole folder, and something in it cannot be read", stderr);
        Assert.Contains("latest.log", stderr);
        Assert.DoesNotContain("ASYNC2_CACHE", stderr);
        Assert.DoesNotContain("   at ", stderr + stdout);
    }

    [Fact]
    public void Run_of_an_app_whose_folder_holds_a_FIFO_copies_it_as_an_empty_file_without_opening_it()
    {
        // Hashing and copying the app folder opened the FIFO, which waits for a writer: run hung for ever.
        if (OperatingSystem.IsWindows())
            return;
        var dll = AppFolder("fifo");
        var fifo = Path.Combine(Path.GetDirectoryName(dll)!, "requests.fifo");
        using (var mkfifo = System.Diagnostics.Process.Start("mkfifo", [fifo]))
            mkfifo.WaitForExit();
        Assert.True(File.Exists(fifo));
        var cache = Path.Combine(_folder, "cache");

        var run = Task.Run(() => RunWithCache(cache, dll));
        if (!run.Wait(TimeSpan.FromMinutes(3)))
        {
            using var unblock = new FileStream(fifo, FileMode.Open, FileAccess.Write);
            Assert.Fail("run waited on the FIFO in the app folder");
        }

        Assert.Equal(0, run.Result.ExitCode);
        Assert.Equal("no exception\n", run.Result.Stdout.ReplaceLineEndings("\n"));
        var copy = new FileInfo(Path.Combine(Directory.GetDirectories(cache).Single(), "requests.fifo"));
        Assert.True(copy.Exists);
        Assert.Equal(0, copy.Length);
    }

    [Fact]
    public void Rewrite_into_the_inputs_own_folder_under_another_name_warns_that_the_host_would_load_the_input()
    {
        // It wrote App.async2.dll beside App.dll without a word, and running it there loaded App.dll,
        // which the stock runtime refused (found by a CLI hunt).
        var dll = AppFolder("beside");
        var output = Path.Combine(Path.GetDirectoryName(dll)!, "Throwing.async2.dll");
        var elsewhere = Path.Combine(_folder, "elsewhere", "Throwing.dll");

        var beside = RunAsync2("rewrite", dll, "-o", output);
        var apart = RunAsync2("rewrite", dll, "-o", elsewhere);

        Assert.Equal(0, beside.ExitCode);
        Assert.Contains($"warning ASYNC2011: {output} is in the folder of its input, Throwing.dll, and keeps its assembly name", beside.Stderr);
        Assert.Contains("Write the output into a folder of its own to run it.", beside.Stderr);
        Assert.Equal(0, apart.ExitCode);
        Assert.DoesNotContain("ASYNC2011", apart.Stderr);
    }

    [Fact]
    public void A_rewrite_with_its_standard_output_closed_still_writes_and_exits_0()
    {
        // The report's first line threw (Bad file descriptor): a stack trace and exit code 134 after
        // the output was written (found by a CLI hunt).
        var input = Fixture("Throwing").RuntimeAsync;
        var output = Path.Combine(_folder, "closed", "Throwing.dll");

        var (exitCode, stdout, stderr) = ProgramRunner.Run("bash",
            ["-c", "\"$0\" \"$1\" rewrite \"$2\" -o \"$3\" >&-", TestEnvironment.DotnetHost, TestEnvironment.CliPath, input, output]);

        Assert.True(exitCode == 0, stderr);
        Assert.DoesNotContain("   at ", stderr + stdout);
        Assert.True(File.Exists(output));
    }

    [Fact]
    public void Run_ignores_a_relative_XDG_CACHE_HOME_as_the_specification_says()
    {
        // It made the cache under the folder async2 was started from (found by a CLI hunt).
        var dll = AppFolder("xdg");
        var home = Directory.CreateDirectory(Path.Combine(_folder, "home")).FullName;
        var workingDirectory = Directory.CreateDirectory(Path.Combine(_folder, "started-here")).FullName;

        var (exitCode, _, stderr) = ProgramRunner.Run(TestEnvironment.DotnetHost, [TestEnvironment.CliPath, "run", dll], workingDirectory: workingDirectory,
            environment: new Dictionary<string, string?> { ["ASYNC2_CACHE"] = null, ["XDG_CACHE_HOME"] = "relative-cache", ["HOME"] = home });

        Assert.True(exitCode == 0, stderr);
        Assert.Empty(Directory.GetFileSystemEntries(workingDirectory));
        Assert.Single(Directory.GetDirectories(Path.Combine(home, ".cache", "async2")));
    }

    [Fact]
    public void Run_of_a_classic_app_with_runtime_async_assemblies_only_in_a_subfolder_puts_the_runtime_in_the_apps_folder()
    {
        // Where the app's .deps.json lists it, and where the host looks for it.
        var app = Directory.CreateDirectory(Path.Combine(_folder, "classic-app")).FullName;
        var classic = Fixture("Throwing").Classic;
        var dll = Path.Combine(app, Path.GetFileName(classic));
        File.Copy(classic, dll);
        File.Copy(ProgramBuilder.RuntimeConfigOf(Fixture("Throwing").RuntimeAsync), ProgramBuilder.RuntimeConfigOf(dll));
        var plugin = Path.Combine(app, "plugins", "Plugin.dll");
        Directory.CreateDirectory(Path.GetDirectoryName(plugin)!);
        File.Copy(Fixture("Throwing").RuntimeAsync, plugin);

        var run = RunWithCache(Path.Combine(_folder, "cache"), dll);

        Assert.True(run.ExitCode == 0, run.Stderr);
        var entry = Assert.Single(Directory.GetDirectories(Path.Combine(_folder, "cache")));
        Assert.Null(AssemblyFile.RuntimeAsyncMvid(Path.Combine(entry, "plugins", "Plugin.dll")));
        Assert.True(File.Exists(Path.Combine(entry, "Async2.Runtime.dll")));
    }

    [Fact]
    public void Run_makes_again_an_entry_that_lost_a_file_or_had_one_cut_short()
    {
        // An entry was trusted as long as its folder existed: with its Async2.Runtime.dll cut short
        // the app could not start, and with a content file gone it ran without it (found in a review).
        var dll = AppFolder("damaged");
        File.WriteAllText(Path.Combine(Path.GetDirectoryName(dll)!, "data.txt"), "port=5000");
        var cache = Path.Combine(_folder, "cache");
        Assert.Equal(0, RunWithCache(cache, dll).ExitCode);
        var entry = Assert.Single(Directory.GetDirectories(cache));
        var runtime = Path.Combine(entry, "Async2.Runtime.dll");
        var whole = Fingerprint(runtime);
        File.Delete(Path.Combine(entry, "data.txt"));
        File.WriteAllBytes(runtime, File.ReadAllBytes(runtime)[..4096]);

        var again = RunWithCache(cache, dll);

        Assert.True(again.ExitCode == 0, again.Stderr);
        Assert.Equal("no exception\n", again.Stdout.ReplaceLineEndings("\n"));
        Assert.Equal([entry], Directory.GetDirectories(cache));
        Assert.Equal("port=5000", File.ReadAllText(Path.Combine(entry, "data.txt")));
        Assert.Equal(whole, Fingerprint(runtime));
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Run_gives_the_app_this_versions_runtime_unless_the_app_carries_a_later_one(bool onlyInSubfolder)
    {
        // The app's own Async2.Runtime.dll (an app built with Async2.Build) stayed when only a
        // subfolder's assemblies were rewritten, also when older than the runtime they were
        // rewritten for; a rewrite in the app's folder replaced it, also when later (found in a review).
        var toolsRuntime = Path.Combine(Path.GetDirectoryName(TestEnvironment.CliPath)!, "Async2.Runtime.dll");
        foreach (var (name, version, keepsAppsOwn) in new[] { ("older", new Version(0, 0, 1, 0), false), ("later", new Version(99, 0, 0, 0), true) })
        {
            var app = Directory.CreateDirectory(Path.Combine(_folder, $"{name}-{onlyInSubfolder}")).FullName;
            var build = Fixture("Throwing");
            var dll = Path.Combine(app, Path.GetFileName(build.RuntimeAsync));
            File.Copy(onlyInSubfolder ? build.Classic : build.RuntimeAsync, dll);
            File.Copy(ProgramBuilder.RuntimeConfigOf(build.RuntimeAsync), ProgramBuilder.RuntimeConfigOf(dll));
            var plugin = Path.Combine(app, "plugins", "Plugin.dll");
            Directory.CreateDirectory(Path.GetDirectoryName(plugin)!);
            File.Copy(build.RuntimeAsync, plugin);
            var appsOwn = Path.Combine(app, "Async2.Runtime.dll");
            using (var runtime = ModuleDefinition.ReadModule(toolsRuntime))
            {
                runtime.Assembly.Name.Version = version;
                runtime.Write(appsOwn);
            }
            var cache = Path.Combine(_folder, $"cache-{name}-{onlyInSubfolder}");

            var run = RunWithCache(cache, dll);

            Assert.True(run.ExitCode == 0, run.Stderr);
            var entry = Assert.Single(Directory.GetDirectories(cache));
            Assert.Equal(Fingerprint(keepsAppsOwn ? appsOwn : toolsRuntime), Fingerprint(Path.Combine(entry, "Async2.Runtime.dll")));
        }
    }

    [Fact]
    public void Run_refuses_an_app_whose_own_assemblies_another_Async2_contract_rewrote()
    {
        // Its runtime-async plugin, rewritten now, and its own code, rewritten under contract 2, cannot
        // share one Async2.Runtime: one of them would fail at its first call.
        var build = Fixture("Throwing");
        var now = Path.Combine(_folder, "now", Path.GetFileName(build.RuntimeAsync));
        Assert.Equal(0, RunAsync2("rewrite", build.RuntimeAsync, "-o", now).ExitCode);
        var app = Directory.CreateDirectory(Path.Combine(_folder, "contract-2")).FullName;
        var dll = Path.Combine(app, Path.GetFileName(now));
        using (var module = ModuleDefinition.ReadModule(now))
        {
            var mark = module.Assembly.CustomAttributes.Single(a => a.AttributeType.Name == "RewrittenByAsync2Attribute");
            mark.ConstructorArguments[0] = new CustomAttributeArgument(module.TypeSystem.Int32, 2);
            mark.ConstructorArguments[1] = new CustomAttributeArgument(module.TypeSystem.String, "0.3.0.0");
            module.Write(dll);
        }
        File.Copy(ProgramBuilder.RuntimeConfigOf(build.RuntimeAsync), ProgramBuilder.RuntimeConfigOf(dll));
        File.Copy(Path.Combine(Path.GetDirectoryName(now)!, "Async2.Runtime.dll"), Path.Combine(app, "Async2.Runtime.dll"));
        Directory.CreateDirectory(Path.Combine(app, "plugins"));
        File.Copy(build.RuntimeAsync, Path.Combine(app, "plugins", "Plugin.dll"));
        var cache = Path.Combine(_folder, "cache");

        var (exitCode, _, stderr) = RunWithCache(cache, dll);

        Assert.Equal(1, exitCode);
        Assert.Contains($"error ASYNC2007: Throwing: the app's {Path.GetFileName(dll)} was rewritten by Async2 0.3.0.0 (contract 2) when it was built", stderr);
        Assert.Contains("Build the whole app with one version of Async2.Build", stderr);
        Assert.Empty(Directory.EnumerateFileSystemEntries(cache));
    }

    [Theory]
    [InlineData("~/async2-cache", "the shell does not expand '~' inside quotes")]
    [InlineData("relative-cache", "a relative cache would move with the folder async2 is started from")]
    public void Run_refuses_an_ASYNC2_CACHE_that_is_not_an_absolute_path(string cache, string why)
    {
        // It made a folder named '~' (or the relative one) under the folder async2 was started from.
        var dll = AppFolder("relative");
        var workingDirectory = Directory.CreateDirectory(Path.Combine(_folder, "started-here")).FullName;

        var (exitCode, _, stderr) = ProgramRunner.Run(TestEnvironment.DotnetHost, [TestEnvironment.CliPath, "run", dll], workingDirectory: workingDirectory,
            environment: new Dictionary<string, string?> { ["ASYNC2_CACHE"] = cache });

        Assert.Equal(1, exitCode);
        Assert.Contains($"error: ASYNC2_CACHE is '{cache}', which is not an absolute path.", stderr);
        Assert.Contains(why, stderr);
        Assert.Contains("fix: set ASYNC2_CACHE to an absolute path", stderr);
        Assert.Empty(Directory.GetFileSystemEntries(workingDirectory));
    }

    /// <summary>The Throwing fixture's runtime-async build and its runtimeconfig.json in a folder of their own.</summary>
    private string AppFolder(string name)
    {
        var app = Directory.CreateDirectory(Path.Combine(_folder, name)).FullName;
        var input = Fixture("Throwing").RuntimeAsync;
        var dll = Path.Combine(app, Path.GetFileName(input));
        File.Copy(input, dll);
        File.Copy(ProgramBuilder.RuntimeConfigOf(input), ProgramBuilder.RuntimeConfigOf(dll));
        return dll;
    }

    [Fact]
    public void Run_of_an_app_carrying_the_runtimes_core_library_rewrites_the_app_and_leaves_the_library()
    {
        // A self-contained app's folder holds System.Private.CoreLib, whose AsyncHelpers methods are
        // flagged runtime-async: run tried to rewrite it and stopped with ten ASYNC2103 errors about
        // the runtime's own methods (found by a hunt over .NET 11's framework).
        var dll = AppFolder("app");
        var coreLibrary = Path.Combine(Path.GetDirectoryName(dll)!, "System.Private.CoreLib.dll");
        File.Copy(typeof(object).Assembly.Location, coreLibrary);

        var run = RunWithCache(Path.Combine(_folder, "cache"), dll);

        Assert.True(run.ExitCode == 0, run.Stderr);
        Assert.Equal("no exception\n", run.Stdout.ReplaceLineEndings("\n"));
        var entry = Assert.Single(Directory.GetDirectories(Path.Combine(_folder, "cache")));
        Assert.Equal(File.ReadAllBytes(coreLibrary), File.ReadAllBytes(Path.Combine(entry, "System.Private.CoreLib.dll")));
    }

    [Fact]
    public void Rewrite_of_the_runtimes_core_library_says_it_cannot_be_rewritten()
    {
        // It printed an ASYNC2103 error for each of the runtime's own AsyncHelpers methods, as if they were the user's.
        var input = Path.Combine(_folder, "System.Private.CoreLib.dll");
        File.Copy(typeof(object).Assembly.Location, input);

        var (exitCode, stdout, stderr) = RunAsync2("rewrite", input, "-o", Path.Combine(_folder, "out", "System.Private.CoreLib.dll"));

        Assert.Equal(1, exitCode);
        Assert.Contains($"error ASYNC2001: {input}: it is the runtime's core library (System.Private.CoreLib, which defines System.Object)", stderr);
        Assert.Contains("Rewrite the assemblies that call into it; they run on it as it is.", stderr);
        Assert.DoesNotContain("ASYNC2103", stderr + stdout);
        Assert.False(Directory.Exists(Path.Combine(_folder, "out")));
    }

    [Fact]
    public void Run_with_the_cache_inside_the_app_folder_leaves_it_out_of_the_app()
    {
        var dll = AppFolder("app");
        var cache = Path.Combine(Path.GetDirectoryName(dll)!, "cache");

        Assert.Equal(0, RunWithCache(cache, dll).ExitCode);
        Assert.Equal(0, RunWithCache(cache, dll).ExitCode);

        var entry = Assert.Single(Directory.GetDirectories(cache));
        Assert.Empty(Directory.GetDirectories(entry));
    }

    [Fact]
    public void Run_passes_SIGTERM_on_to_the_app_and_returns_its_exit_code()
    {
        if (OperatingSystem.IsWindows())
            return; // no POSIX signals to pass on
        var app = Fixture("Signals").RuntimeAsync;
        var info = new System.Diagnostics.ProcessStartInfo(TestEnvironment.DotnetHost)
        {
            RedirectStandardOutput = true,
            Environment = { ["ASYNC2_CACHE"] = Path.Combine(_folder, "cache") },
        };
        foreach (var arg in (string[])[TestEnvironment.CliPath, "run", app])
            info.ArgumentList.Add(arg);
        using var async2 = System.Diagnostics.Process.Start(info)!;
        Assert.Equal("ready", async2.StandardOutput.ReadLine());

        using (var kill = System.Diagnostics.Process.Start("kill", ["-TERM", async2.Id.ToString()]))
            kill.WaitForExit();
        var rest = async2.StandardOutput.ReadToEnd();
        Assert.True(async2.WaitForExit(TimeSpan.FromSeconds(20)));

        Assert.Contains("stopping on SIGTERM", rest);
        Assert.Equal(7, async2.ExitCode);
    }

    [Fact]
    public void A_signal_during_a_rewrite_stops_it_and_leaves_no_output_and_no_scratch_folder()
    {
        if (OperatingSystem.IsWindows())
            return; // no POSIX signals to send
        var input = SlowToRewrite();
        var outputFolder = Path.Combine(_folder, "interrupted");
        var info = new System.Diagnostics.ProcessStartInfo(TestEnvironment.DotnetHost) { RedirectStandardError = true };
        foreach (var arg in (string[])[TestEnvironment.CliPath, "rewrite", input, "-o", Path.Combine(outputFolder, "App.dll")])
            info.ArgumentList.Add(arg);
        using var async2 = System.Diagnostics.Process.Start(info)!;
        var stderr = async2.StandardError.ReadToEndAsync();
        // Processor time, not wall time, tells the start-up (well under a second of it) is over on a loaded machine too.
        while (!async2.WaitForExit(20) && UsedProcessorTime(async2) < TimeSpan.FromSeconds(1.5))
        {
        }
        Assert.False(async2.HasExited, $"the rewrite ended before the signal, with exit code {(async2.HasExited ? async2.ExitCode : 0)}: {(async2.HasExited ? stderr.Result : "")}");

        // SIGTERM, which takes the same path as Ctrl+C's SIGINT: a test host may start children with SIGINT ignored.
        using (var kill = System.Diagnostics.Process.Start("kill", ["-TERM", async2.Id.ToString()]))
            kill.WaitForExit();
        Assert.True(async2.WaitForExit(TimeSpan.FromSeconds(60)));

        Assert.Equal("async2: interrupted; nothing was written.", stderr.Result.Trim());
        Assert.Equal(130, async2.ExitCode);
        Assert.False(Directory.Exists(outputFolder));
    }

    /// <summary>The processor time <paramref name="process"/> used so far, or zero once it has exited.</summary>
    private static TimeSpan UsedProcessorTime(System.Diagnostics.Process process)
    {
        try
        {
            return process.TotalProcessorTime;
        }
        catch (InvalidOperationException)
        {
            return TimeSpan.Zero;
        }
    }

    /// <summary>
    /// A program whose rewrite takes seconds: methods of 150 awaits each keeping 30 locals live (a
    /// rewrite's work grows with both). The rewrite checks for a stop between methods.
    /// </summary>
    private string SlowToRewrite()
    {
        const int Methods = 12, Awaits = 150, Locals = 30;
        var source = new System.Text.StringBuilder("""
            static class Program
            {
                static async System.Threading.Tasks.Task<long> Step(long v) { await System.Threading.Tasks.Task.Yield(); return v + 1; }
                static async System.Threading.Tasks.Task Main() => System.Console.WriteLine(await M0(1));

            """);
        for (int m = 0; m < Methods; m++)
        {
            source.Append($"    static async System.Threading.Tasks.Task<long> M{m}(long s)\n    {{\n");
            source.Append("        long ").AppendJoin(", ", Enumerable.Range(0, Locals).Select(v => $"v{v} = s + {v}")).Append(";\n");
            for (int a = 0; a < Awaits; a++)
                source.Append($"        v{a % Locals} += await Step(v{(a + 1) % Locals});\n");
            var rest = m + 1 < Methods ? $" + await M{m + 1}(v0)" : "";
            source.Append("        return ").AppendJoin(" + ", Enumerable.Range(0, Locals).Select(v => $"v{v}")).Append(rest).Append(";\n    }\n");
        }
        source.Append("}\n");
        var file = Path.Combine(_folder, "SlowToRewrite.cs");
        File.WriteAllText(file, source.ToString());
        return ProgramBuilder.Build("SlowToRewrite", [file]).RuntimeAsync;
    }

    [Theory]
    [InlineData("--x", "y")]
    [InlineData("--x", "y", "-h", "--help", "--version", "-o")]
    [InlineData("--", "--x", "--", "@response.rsp", "[directive]", "")]
    [InlineData("run", "rewrite", "-?")]
    public void Run_passes_every_argument_after_the_app_to_it_verbatim(params string[] appArguments)
    {
        var app = Fixture("EchoArguments").RuntimeAsync;
        // A response file that exists, so that were it expanded (as async2's own arguments are) the test would see it.
        var responseFile = Path.Combine(_folder, "response.rsp");
        File.WriteAllText(responseFile, "--expanded");
        appArguments = [.. appArguments.Select(a => a == "@response.rsp" ? "@" + responseFile : a)];

        var (exitCode, stdout, stderr) = RunWithCache(Path.Combine(_folder, "cache"), [app, .. appArguments]);

        Assert.True(exitCode == appArguments.Length, stderr);
        Assert.Equal(string.Concat(appArguments.Select(a => $"[{a}]\n")), stdout.ReplaceLineEndings("\n"));
    }

    [Fact]
    public void Run_takes_the_app_after_a_double_dash()
    {
        var app = Fixture("EchoArguments").RuntimeAsync;

        var (exitCode, stdout, stderr) = RunWithCache(Path.Combine(_folder, "cache"), "--", app, "--x", "-h");

        Assert.True(exitCode == 2, stderr);
        Assert.Equal("[--x]\n[-h]\n", stdout.ReplaceLineEndings("\n"));
    }

    [Fact]
    public void Run_of_a_classic_app_runs_it_directly()
    {
        var build = Fixture("Throwing");
        var cache = Path.Combine(_folder, "cache");
        var result = RunWithCache(cache, build.Classic, "x");
        Assert.Equal(7, result.ExitCode);
        Assert.False(Directory.Exists(cache) && Directory.EnumerateFileSystemEntries(cache).Any());
    }

    private static (int ExitCode, string Stdout, string Stderr) RunWithCache(string cache, params string[] args)
    {
        Environment.SetEnvironmentVariable("ASYNC2_CACHE", cache);
        try
        {
            return RunAsync2(["run", .. args]);
        }
        finally
        {
            Environment.SetEnvironmentVariable("ASYNC2_CACHE", null);
        }
    }
}
