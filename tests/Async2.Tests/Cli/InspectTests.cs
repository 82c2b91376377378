using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.Loader;
using System.Text.Json;
using System.Text.RegularExpressions;
using Async2.Tests.Corpus;
using Xunit;
using static Async2.Tests.Cli.CliRun;

namespace Async2.Tests.Cli;

/// <summary>
/// <c>async2 inspect</c> on a corpus program that mixes every kind of await: direct variant calls,
/// virtual entries, Task bridges to classic overrides and a custom awaiter (Task.Yield).
/// </summary>
public sealed class InspectTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("async2-inspect-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static ProgramBuild Program() => ProgramBuilder.Build("virtual_mixed_overrides",
        [Path.Combine(TestEnvironment.CorpusFolder, "virtual_mixed_overrides.cs"), .. TestEnvironment.CorpusSupportFiles]);

    [Fact]
    public void Text_has_a_line_per_await_with_the_kind_the_rewriter_chose()
    {
        var build = Program();
        var before = Fingerprint(build.RuntimeAsync);

        var (exitCode, stdout, stderr) = RunAsync2("inspect", build.RuntimeAsync);

        Assert.True(exitCode == 0, stderr);
        Assert.Matches(@"(?m)^  await Base::Template state 1 at IL_[0-9a-f]{4} virtual_mixed_overrides\.cs:\d+: virtual-entry Base::Method; keeps nothing$", stdout);
        Assert.Matches(@"(?m)^  await Base::Method state 1 at IL_[0-9a-f]{4} virtual_mixed_overrides\.cs:\d+: direct Program::Pause; keeps x: System\.Int32$", stdout);
        Assert.Matches(@"(?m)^  await MoreDerived::Method state 2 .*: task-bridge System\.Threading\.Tasks\.Task`1<System\.Int32> \(the callee Derived::Method is not a runtime-async method\)", stdout);
        Assert.Matches(@"(?m)^  await Program::Pause state 1 .*: awaiter System\.Runtime\.CompilerServices\.YieldAwaitable/YieldAwaiter", stdout);
        Assert.Matches(@"(?m)^method Derived::Method: classic, compiled as a classic state machine", stdout);

        // One await line per await the rewrite itself reports, method by method.
        foreach (var method in build.Report.Methods)
            Assert.Equal(method.AwaitSites, Regex.Matches(stdout, $@"(?m)^  await {Regex.Escape(method.Method)} state ").Count);
        Assert.Equal(before, Fingerprint(build.RuntimeAsync));
    }

    [Fact]
    public void Continuation_sizes_are_what_the_runtime_allocates()
    {
        // Each class of a frame's hierarchy starts where its base class ended: a 4-byte field of
        // the method's own class does not fill the padding Continuation leaves, a 4-byte result does.
        var build = ProgramBuilder.Build("frames_field_shapes", [Path.Combine(TestEnvironment.CorpusFolder, "frames_field_shapes.cs")]);

        var (exitCode, stdout, stderr) = RunAsync2("inspect", build.RuntimeAsync);

        Assert.True(exitCode == 0, stderr);
        var estimates = Regex.Matches(stdout, @"(?m)^method Program::(\w+): rewritten, .*, continuation (\d+) B")
            .ToDictionary(m => m.Groups[1].Value, m => int.Parse(m.Groups[2].Value));
        var context = new AssemblyLoadContext("frames_field_shapes", isCollectible: true);
        try
        {
            var program = context.LoadFromAssemblyPath(build.Rewritten).GetType("Program")!;
            var frames = program.GetNestedTypes(BindingFlags.NonPublic).Where(t => t.Name.Contains(">d__Async2") && !t.ContainsGenericParameters).ToList();
            Assert.Equal(13, frames.Count);
            foreach (var frame in frames)
            {
                string method = frame.Name[1..frame.Name.IndexOf('>')];
                Assert.True(estimates.TryGetValue(method, out int estimate), $"no estimate for {method}:\n{stdout}");
                Assert.True(estimate == AllocatedSize(frame), $"{method}: estimated {estimate} B, allocated {AllocatedSize(frame)} B");
            }
        }
        finally
        {
            context.Unload();
        }

        static long AllocatedSize(Type type)
        {
            RuntimeHelpers.GetUninitializedObject(type);
            long before = GC.GetAllocatedBytesForCurrentThread();
            RuntimeHelpers.GetUninitializedObject(type);
            return GC.GetAllocatedBytesForCurrentThread() - before;
        }
    }

    [Fact]
    public void A_frame_keeps_its_this_only_where_code_after_an_await_reads_it()
    {
        // Every frame of a class's instance method kept its this, 8 bytes, where no code after any
        // of its awaits read it. Service.Pure and ReadsFirst read no field after their await,
        // ReadsLater and ChecksNull do; the program runs them suspended, also on a null this.
        var build = ProgramBuilder.Build("members_null_receivers",
            [Path.Combine(TestEnvironment.CorpusFolder, "members_null_receivers.cs"), .. TestEnvironment.CorpusSupportFiles]);

        var (exitCode, stdout, stderr) = RunAsync2("inspect", build.RuntimeAsync);

        Assert.True(exitCode == 0, stderr);
        var estimates = Regex.Matches(stdout, @"(?m)^method Service::(\w+): rewritten, .*, continuation (\d+) B")
            .ToDictionary(m => m.Groups[1].Value, m => int.Parse(m.Groups[2].Value));
        Assert.Equal(estimates["ReadsLater"] - 8, estimates["Pure"]);
        var context = new AssemblyLoadContext("members_null_receivers", isCollectible: true);
        try
        {
            var service = context.LoadFromAssemblyPath(build.Rewritten).GetType("Service")!;
            bool KeepsThis(string method) => service.GetNestedTypes(BindingFlags.NonPublic)
                .Single(t => t.Name.StartsWith($"<{method}>d__Async2", StringComparison.Ordinal))
                .GetField("self") is not null;
            Assert.False(KeepsThis("Pure"));
            Assert.False(KeepsThis("ReadsFirst"));
            Assert.True(KeepsThis("ReadsLater"));
            Assert.True(KeepsThis("ChecksNull"));
        }
        finally
        {
            context.Unload();
        }
    }

    [Fact]
    public void Virtual_awaits_in_an_assembly_open_to_proxies_say_why_they_go_through_the_task()
    {
        var build = ProgramBuilder.Build("virtual_proxy_overrides", [Path.Combine(TestEnvironment.CorpusFolder, "virtual_proxy_overrides.cs")]);

        var (exitCode, stdout, stderr) = RunAsync2("inspect", build.RuntimeAsync);

        Assert.True(exitCode == 0, stderr);
        Assert.Matches(@"(?m)^  await Program::UseService state 1 .*: task-bridge System\.Threading\.Tasks\.Task`1<System\.Int32> \(a virtual call \(IService::GetAsync\) in an assembly that lets DynamicProxyGenAssembly2 see its internals", stdout);
        Assert.Matches(@"(?m)^  await Program::Name state 1 .*: task-bridge .*\(a virtual call \(Component::NameAsync\) in an assembly that lets DynamicProxyGenAssembly2", stdout);
        Assert.DoesNotContain("virtual-entry", stdout);
        Assert.DoesNotContain("interface-entry", stdout);
    }

    [Fact]
    public void Awaits_with_ConfigureAwait_on_the_programs_own_methods_are_direct_calls()
    {
        // Libraries put ConfigureAwait(false) on nearly every await: these took the Task path,
        // with a Task per call, and inspect gave a wrong reason (found by a helper).
        var build = ProgramBuilder.Build("configureawait_direct_calls", [Path.Combine(TestEnvironment.CorpusFolder, "configureawait_direct_calls.cs")]);

        var (exitCode, stdout, stderr) = RunAsync2("inspect", build.RuntimeAsync);

        Assert.True(exitCode == 0, stderr);
        Assert.Matches(@"(?m)^  await Program::Callers state 2 .*: direct Program::Value; ", stdout);
        Assert.Matches(@"(?m)^  await Program::Callers state 3 .*: direct Program::Nothing; ", stdout);
        Assert.Matches(@"(?m)^  await Program::ValueTaskCallers state 2 .*: direct Program::ValueV; ", stdout);
        Assert.Matches(@"(?m)^  await Program::ValueTaskCallers state 3 .*: direct Program::NothingV; ", stdout);
        Assert.Matches(@"(?m)^  await Program::DispatchedCallers state 1 .*: virtual-entry Work::Run; ", stdout);
        Assert.Matches(@"(?m)^  await Program::DispatchedCallers state 2 .*: interface-entry IWork::Run; ", stdout);
        Assert.Matches(@"(?m)^  await Program::Gate state 1 .*: task-bridge .*ConfiguredTaskAwaitable", stdout);
    }

    [Fact]
    public void Awaits_with_ConfigureAwait_in_generic_types_are_direct_calls_unless_the_argument_is_no_constant_bool()
    {
        // A computed argument was reported as "not a runtime-async method" or "a task value"
        // (found in review); ConfigureAwaitOptions as such.
        var build = ProgramBuilder.Build("configureawait_generic_contexts", [Path.Combine(TestEnvironment.CorpusFolder, "configureawait_generic_contexts.cs")]);

        var (exitCode, stdout, stderr) = RunAsync2("inspect", build.RuntimeAsync);

        Assert.True(exitCode == 0, stderr);
        Assert.Matches(@"(?m)^  await Pair`2::SecondLater state 1 .*: direct Pair`2::MakeSecond; ", stdout);
        Assert.Matches(@"(?m)^  await One`1::Unwrap state 1 .*: direct One`1::Wrap; ", stdout);
        Assert.Matches(@"(?m)^  await Program::Both state 1 .*: direct Program::Later; ", stdout);
        Assert.Matches(@"(?m)^  await Pair`2::SecondWhere state 1 .*: task-bridge .*\(ConfigureAwait with a value computed at run time: only a constant true or false is honoured on a direct call\)", stdout);
        Assert.Matches(@"(?m)^  await Pair`2::CountListedYielding state 1 .*: task-bridge .*\(ConfigureAwait with ConfigureAwaitOptions: only ConfigureAwait\(true or false\) is honoured on a direct call\)", stdout);
    }

    [Fact]
    public void An_await_of_a_conditional_expression_says_its_task_comes_from_more_than_one_branch()
    {
        // The reason read the call before the Await, one branch's: "the callee P::Later is not a
        // runtime-async method", of a method rewritten just before (its async flag gone by then).
        var source = Path.Combine(_folder, "ConditionalAwait.cs");
        File.WriteAllText(source, """
            using System.Threading.Tasks;
            public static class P
            {
                static async ValueTask Later() => await Task.Yield();
                static async Task<int> Value() { await Task.Yield(); return 1; }
                public static async Task<int> Pick(bool which)
                {
                    await (which ? Later() : Later());
                    return await (which ? Value() : Value()).ConfigureAwait(false);
                }
                public static async Task Main() => System.Console.WriteLine(await Pick(true));
            }
            """);
        var program = ProgramBuilder.Compile("ConditionalAwait", [source], runtimeAsync: true);

        var (exitCode, stdout, stderr) = RunAsync2("inspect", program);

        Assert.True(exitCode == 0, stderr);
        const string why = @"\(the task comes from more than one branch \(a conditional expression, for one\): no single call produced it\)";
        Assert.Matches(@"(?m)^  await P::Pick state 1 .*: task-bridge System\.Threading\.Tasks\.ValueTask " + why, stdout);
        Assert.Matches(@"(?m)^  await P::Pick state 2 .*: task-bridge System\.Runtime\.CompilerServices\.ConfiguredTaskAwaitable`1<System\.Int32> " + why, stdout);
        Assert.DoesNotContain("not a runtime-async method", stdout);
    }

    [Fact]
    public void Html_report_into_a_folder_that_does_not_exist_is_a_clear_error()
    {
        // It escaped as an unhandled DirectoryNotFoundException (exit 134; found in review).
        var page = Path.Combine(_folder, "no-such-folder", "report.html");

        var (exitCode, stdout, stderr) = RunAsync2("inspect", Program().RuntimeAsync, "--html", page);

        Assert.Equal(1, exitCode);
        Assert.Contains($"error: cannot write the HTML report to '{page}'.", stderr);
        Assert.DoesNotContain("   at ", stderr + stdout);
        Assert.False(Directory.Exists(Path.GetDirectoryName(page)));
    }

    [Fact]
    public void An_assembly_already_rewritten_lists_its_rewritten_methods_and_says_where_their_awaits_are()
    {
        var build = Program();

        var (exitCode, stdout, stderr) = RunAsync2("inspect", build.Rewritten);

        Assert.True(exitCode == 0, stderr);
        Assert.Contains(": rewritten by Async2, ", stdout);
        foreach (var outcome in build.Report.Methods)
            Assert.Matches($@"(?m)^method {Regex.Escape(outcome.Method)}: rewritten, rewritten by an earlier run of Async2; inspect the runtime-async input", stdout);
        Assert.Matches(@"(?m)^method Derived::Method: classic, compiled as a classic state machine", stdout);
    }

    [Fact]
    public void Json_lists_the_same_methods_and_awaits()
    {
        var build = Program();
        var (exitCode, stdout, stderr) = RunAsync2("inspect", build.RuntimeAsync, "--json");

        Assert.True(exitCode == 0, stderr);
        using var json = JsonDocument.Parse(stdout);
        var methods = json.RootElement.GetProperty("methods").EnumerateArray().ToList();
        foreach (var outcome in build.Report.Methods)
        {
            var method = Assert.Single(methods, m => m.GetProperty("method").GetString() == outcome.Method);
            Assert.Equal("rewritten", method.GetProperty("status").GetString());
            Assert.Equal(outcome.AwaitSites, method.GetProperty("awaits").GetArrayLength());
            Assert.True(method.GetProperty("continuationBytes").GetInt32() >= 24);
        }
    }

    [Fact]
    public void Html_report_refuses_the_inspected_assemblys_own_files()
    {
        var build = Program();
        var input = Path.Combine(_folder, "App.dll");
        File.Copy(build.RuntimeAsync, input);
        File.Copy(Path.ChangeExtension(build.RuntimeAsync, ".pdb"), Path.ChangeExtension(input, ".pdb"));
        var before = Directory.GetFiles(_folder).ToDictionary(f => f, Fingerprint);

        foreach (var (page, why) in new[] { (input, "it is the inspected assembly itself"), (Path.ChangeExtension(input, ".pdb"), "it is the inspected assembly's symbols (.pdb)") })
        {
            var (exitCode, _, stderr) = RunAsync2("inspect", input, "--html", page);
            Assert.Equal(1, exitCode);
            Assert.Contains($"cannot write the HTML report to '{page}'", stderr);
            Assert.Contains(why + ", which inspect only reads", stderr);
            Assert.Equal(before, Directory.GetFiles(_folder).ToDictionary(f => f, Fingerprint));
        }
    }

    [Fact]
    public void Html_report_replaces_an_earlier_report_and_refuses_any_other_file()
    {
        // --html Program.cs replaced the source file with the report (found in a review).
        var build = Program();
        var page = Path.Combine(_folder, "report.html");
        Assert.Equal(0, RunAsync2("inspect", build.RuntimeAsync, "--html", page).ExitCode);
        var source = Path.Combine(_folder, "Program.cs");
        File.WriteAllText(source, "class Program { static void Main() { } }");
        var before = Fingerprint(source);

        var again = RunAsync2("inspect", build.RuntimeAsync, "--html", page);
        var (exitCode, _, stderr) = RunAsync2("inspect", build.RuntimeAsync, "--html", source);

        Assert.True(again.ExitCode == 0, again.Stderr);
        Assert.Equal(1, exitCode);
        Assert.Contains($"cannot write the HTML report to '{source}'", stderr);
        Assert.Contains("the file exists and is not an HTML page", stderr);
        Assert.Equal(before, Fingerprint(source));
    }

    [Fact]
    public void Html_report_renders_the_method_table_in_a_browser()
    {
        var build = Program();
        var page = Path.Combine(_folder, "report.html");
        var (exitCode, _, stderr) = RunAsync2("inspect", build.RuntimeAsync, "--html", page);
        Assert.True(exitCode == 0, stderr);

        var chromium = Wasm.Chromium.Path();
        string[] headless = [.. Wasm.Chromium.HeadlessArguments(Path.Combine(_folder, "profile")), "--window-size=1280,900"];
        var screenshot = Path.Combine(_folder, "report.png");
        var shot = ProgramRunner.Run(chromium, [.. headless, $"--screenshot={screenshot}", new Uri(page).AbsoluteUri], timeout: TimeSpan.FromMinutes(2));
        var dom = ProgramRunner.Run(chromium, [.. headless, "--dump-dom", new Uri(page).AbsoluteUri], timeout: TimeSpan.FromMinutes(2));

        Assert.True(shot.ExitCode == 0 && File.Exists(screenshot) && new FileInfo(screenshot).Length > 10_000, $"no screenshot: {shot.Stderr}");
        Assert.Equal(0, dom.ExitCode);
        // The rendered DOM holds the table, one row per async method, rewritten and classic.
        Assert.Equal(build.Report.Methods.Count, Regex.Matches(dom.Stdout, @"<td class=""rewritten"">rewritten</td>").Count);
        Assert.Equal(build.Report.Methods.Count + 4, Regex.Matches(dom.Stdout, @"<tr class=""method"">").Count); // and the four classic overrides
        Assert.Contains("<th>suspension points</th>", dom.Stdout);
        Assert.Contains("<span class=\"await\">", dom.Stdout);
    }

}
