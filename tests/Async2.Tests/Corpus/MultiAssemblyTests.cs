using Async2.Rewriter;
using Xunit;
using Xunit.Abstractions;

namespace Async2.Tests.Corpus;

/// <summary>
/// Programs made of several assemblies (tests/corpus-multi), some runtime-async and some compiled
/// classic and never rewritten, with class hierarchies crossing them in both directions. Run as in
/// <see cref="DifferentialTests"/>: (a) everything classic, (b) the runtime-async build under
/// DOTNET_RuntimeAsync=1, (c) the runtime-async build's app folder rewritten the way
/// <c>async2 run</c> rewrites it (<see cref="AppCache.Prepare"/>), with any assembly marked
/// <c>replaced-by-classic</c> then swapped for its classic build. (c) and (b) must print what (a) prints.
/// </summary>
[Trait("Category", "Slow")]
public sealed class MultiAssemblyTests(ITestOutputHelper output)
{
    public static TheoryData<string> Programs()
    {
        var data = new TheoryData<string>();
        foreach (var folder in Directory.GetDirectories(MultiAssemblyBuilder.ProgramsFolder).Order(StringComparer.Ordinal))
            data.Add(Path.GetFileName(folder));
        return data;
    }

    [Theory]
    [MemberData(nameof(Programs))]
    public void Rewritten_app_prints_what_classic_prints(string program)
    {
        var manifest = MultiAssemblyBuilder.Manifest(program);
        var classic = MultiAssemblyBuilder.BuildApp(program, runtimeAsyncFlavour: false);
        var runtimeAsync = MultiAssemblyBuilder.BuildApp(program, runtimeAsyncFlavour: true);
        var rewritten = AppCache.Prepare(runtimeAsync, Path.Combine(TestEnvironment.Scratch, "app-cache"));

        foreach (var spec in manifest)
        {
            var before = Path.Combine(Path.GetDirectoryName(runtimeAsync)!, spec.Name + ".dll");
            var after = Path.Combine(Path.GetDirectoryName(rewritten)!, spec.Name + ".dll");
            // A classic assembly must really be classic, and must reach run (c) untouched.
            Assert.Equal(spec.RuntimeAsync, RewrittenAssembly.AsyncFlaggedMethods(before).Count > 0);
            if (spec.RuntimeAsync)
            {
                Assert.Empty(RewrittenAssembly.AsyncFlaggedMethods(after));
                Assert.Empty(RewrittenAssembly.AsyncHelpersReferences(after));
            }
            else
                Assert.Equal(File.ReadAllBytes(before), File.ReadAllBytes(after));
        }

        var classicRun = ProgramRunner.Transcript(classic, runtimeAsync: false);
        var rewrittenRun = ProgramRunner.Transcript(MultiAssemblyBuilder.WithReplacements(program, rewritten, classic), runtimeAsync: false);
        output.WriteLine($"(a) classic:\n{classicRun}\n(c) rewritten:\n{rewrittenRun}");
        Assert.Equal(classicRun, rewrittenRun);

        var runtimeRun = ProgramRunner.Transcript(runtimeAsync, runtimeAsync: true);
        output.WriteLine($"(b) DOTNET_RuntimeAsync=1:\n{runtimeRun}");
        KnownRuntimeDifferences.AssertMatchesOrIsListed(program, classicRun, runtimeRun);
    }
}
