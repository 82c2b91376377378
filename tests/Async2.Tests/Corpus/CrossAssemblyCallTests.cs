using Async2.Rewriter;
using Xunit;
using Xunit.Abstractions;

namespace Async2.Tests.Corpus;

/// <summary>
/// Rewritten assemblies call each other's variants directly (Rewrite/ForeignCalls.cs): the app of
/// tests/corpus-multi/calls_across, run with <c>allocations</c>, prints the bytes each kind of
/// synchronously completing call into the rewritten Core library allocates. Directly: none.
/// Through the Task path, as every such call went before and as they must go when Core was
/// replaced by its classic build after the app was rewritten (calls_across_replaced): a Task each.
/// </summary>
public sealed class CrossAssemblyCallTests(ITestOutputHelper output)
{
    private static readonly string[] Kinds = ["static", "instance", "generic", "virtual", "interface", "abstract"];

    [Fact]
    public void Calls_into_a_rewritten_assembly_allocate_nothing()
    {
        var perCall = BytesPerCall("calls_across");
        Assert.All(Kinds, kind => Assert.Equal(0, perCall[kind]));
    }

    [Fact]
    public void Calls_into_an_assembly_replaced_by_its_classic_build_take_the_Task_path()
    {
        var perCall = BytesPerCall("calls_across_replaced");
        Assert.All(Kinds, kind => Assert.True(perCall[kind] > 0, $"{kind}: {perCall[kind]} bytes/call"));
    }

    [Fact]
    public void A_missing_library_the_app_never_calls_breaks_no_call_into_the_others()
    {
        // The first call into any rewritten library probed every library the app calls into, so
        // with Unused.dll left out of the app (an optional feature not deployed) every call into
        // Logging failed with a TypeInitializationException; classic runs (found by a helper).
        const string program = "calls_across_module_initializers";
        var classic = WithoutUnused(MultiAssemblyBuilder.BuildApp(program, runtimeAsyncFlavour: false), "classic");
        var runtimeAsync = MultiAssemblyBuilder.BuildApp(program, runtimeAsyncFlavour: true);
        var rewritten = WithoutUnused(AppCache.Prepare(runtimeAsync, Path.Combine(TestEnvironment.Scratch, "app-cache")), "rewritten");

        var classicTranscript = ProgramRunner.Transcript(classic, runtimeAsync: false);
        var rewrittenTranscript = ProgramRunner.Transcript(rewritten, runtimeAsync: false);
        output.WriteLine($"classic:\n{classicTranscript}\nrewritten:\n{rewrittenTranscript}");
        Assert.EndsWith("[exit code 0]", classicTranscript);
        Assert.Equal(classicTranscript, rewrittenTranscript);
    }

    [Fact]
    public void A_library_method_made_non_async_in_a_later_build_leaks_no_context_change_past_its_awaiting_caller()
    {
        // The app awaits Lib's async method and makes no other call, so it needs no context scope:
        // the callee's variant restores what it changes. Against a later Lib, whose method is no
        // longer async and sets an AsyncLocal, the bridge takes the Task path, and nothing put the
        // value back: Main saw "leaked" where classic async's builder restores "main" (found by a helper).
        var folder = Directory.CreateDirectory(Path.Combine(TestEnvironment.Scratch, "lib-made-non-async")).FullName;
        string Source(string name, string text)
        {
            var path = Path.Combine(folder, name);
            File.WriteAllText(path, text);
            return path;
        }
        var v1 = Source("Lib.v1.cs", """
            namespace Lib;
            public static class Api
            {
                public static readonly System.Threading.AsyncLocal<string> Tag = new();
                public static async System.Threading.Tasks.Task<int> GetAsync() { await System.Threading.Tasks.Task.Yield(); return 1; }
            }
            """);
        var v2 = Source("Lib.v2.cs", """
            namespace Lib;
            public static class Api
            {
                public static readonly System.Threading.AsyncLocal<string> Tag = new();
                public static System.Threading.Tasks.Task<int> GetAsync() { Tag.Value = "leaked"; return System.Threading.Tasks.Task.FromResult(2); }
            }
            """);
        var app = Source("App.cs", """
            using Lib;
            Api.Tag.Value = "main";
            System.Console.WriteLine(await Get());
            System.Console.WriteLine(Api.Tag.Value);
            static async System.Threading.Tasks.Task<int> Get() => await Api.GetAsync();
            """);
        var libV2 = ProgramBuilder.Compile("Lib", [v2], runtimeAsync: false, library: true);
        string WithLibV2(string appAssembly, string flavour)
        {
            var run = Directory.CreateDirectory(Path.Combine(folder, flavour)).FullName;
            foreach (var file in new[] { appAssembly, ProgramBuilder.RuntimeConfigOf(appAssembly) })
                File.Copy(file, Path.Combine(run, Path.GetFileName(file)), overwrite: true);
            File.Copy(libV2, Path.Combine(run, "Lib.dll"), overwrite: true);
            return Path.Combine(run, Path.GetFileName(appAssembly));
        }
        var classic = WithLibV2(ProgramBuilder.Compile("App", [app], runtimeAsync: false, references: [ProgramBuilder.Compile("Lib", [v1], runtimeAsync: false, library: true)]), "classic");
        var rewrittenFolder = Path.Combine(folder, "rewritten");
        var rewrittenLib = AssemblyRewriter.Rewrite(new RewriteRequest(ProgramBuilder.Compile("Lib", [v1], runtimeAsync: true, library: true), Path.Combine(rewrittenFolder, "Lib.dll"))).OutputPath;
        var runtimeAsyncApp = ProgramBuilder.Compile("App", [app], runtimeAsync: true, references: [rewrittenLib]);
        var rewritten = AssemblyRewriter.Rewrite(new RewriteRequest(runtimeAsyncApp, Path.Combine(rewrittenFolder, "App.dll")) { ReferencePaths = [rewrittenLib] }).OutputPath;
        File.Copy(ProgramBuilder.RuntimeConfigOf(runtimeAsyncApp), ProgramBuilder.RuntimeConfigOf(rewritten), overwrite: true);
        File.Copy(libV2, rewrittenLib, overwrite: true); // the later build, classic

        var classicTranscript = ProgramRunner.Transcript(classic, runtimeAsync: false);
        var rewrittenTranscript = ProgramRunner.Transcript(rewritten, runtimeAsync: false);
        output.WriteLine($"classic:\n{classicTranscript}\nrewritten:\n{rewrittenTranscript}");
        Assert.Equal("2\nmain\n[exit code 0]", classicTranscript);
        Assert.Equal(classicTranscript, rewrittenTranscript);
    }

    /// <summary>A copy of <paramref name="app"/>'s folder without Unused.dll; the copy's app.</summary>
    private static string WithoutUnused(string app, string flavour)
    {
        var folder = Path.Combine(TestEnvironment.Scratch, "without-unused", flavour);
        if (Directory.Exists(folder))
            Directory.Delete(folder, recursive: true);
        Directory.CreateDirectory(folder);
        foreach (var file in Directory.GetFiles(Path.GetDirectoryName(app)!))
            if (!Path.GetFileName(file).StartsWith("Unused.", StringComparison.Ordinal))
                File.Copy(file, Path.Combine(folder, Path.GetFileName(file)));
        return Path.Combine(folder, Path.GetFileName(app));
    }

    private Dictionary<string, long> BytesPerCall(string program)
    {
        var classic = MultiAssemblyBuilder.BuildApp(program, runtimeAsyncFlavour: false);
        var runtimeAsync = MultiAssemblyBuilder.BuildApp(program, runtimeAsyncFlavour: true);
        var rewritten = AppCache.Prepare(runtimeAsync, Path.Combine(TestEnvironment.Scratch, "app-cache"));
        var (exitCode, stdout, stderr) = ProgramRunner.RunDotnet([MultiAssemblyBuilder.WithReplacements(program, rewritten, classic), "allocations"], runtimeAsync: false);
        output.WriteLine(stdout + stderr);
        Assert.Equal(0, exitCode);
        return stdout.ReplaceLineEndings("\n").Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(line => line.Split(':'))
            .ToDictionary(parts => parts[0], parts => long.Parse(parts[1].Trim().Split(' ')[0]));
    }
}
