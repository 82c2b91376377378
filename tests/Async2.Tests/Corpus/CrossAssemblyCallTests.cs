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
