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
/// On .NET 11, (c11) and (a11) as in DifferentialTests.
/// </summary>
[Trait("Category", "Slow")]
public sealed class MultiAssemblyTests(ITestOutputHelper output)
{
    private static IReadOnlyList<string> Names() =>
        Directory.GetDirectories(MultiAssemblyBuilder.ProgramsFolder).Order(StringComparer.Ordinal).Select(Path.GetFileName).ToList()!;

    public static TheoryData<string> Programs() => new(Names());

    public static TheoryData<string> Net11Sample() => Net11.Sample(Names());

    public static TheoryData<string> Net11Rest() => Net11.OutsideSample(Names());

    [Theory]
    [MemberData(nameof(Programs))]
    public void Rewritten_app_prints_what_classic_prints(string program)
    {
        var manifest = MultiAssemblyBuilder.Manifest(program);
        var (classic, runtimeAsync, rewritten) = Builds(program);

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
        KnownRuntimeDifferences.Net10.AssertMatchesOrIsListed(program, classicRun, runtimeRun,
            () => ProgramRunner.Transcript(runtimeAsync, runtimeAsync: true));
    }

    /// <summary>(c11) and (a11): the same apps on .NET 11 (<see cref="Net11.AssertRuns"/>); a CI sample, all in the long mode.</summary>
    [Theory]
    [Net11MemberData(nameof(Net11Sample))]
    [Net11MemberData(nameof(Net11Rest), longModeOnly: true)]
    public void On_net11_rewritten_app_prints_what_classic_prints(string program)
    {
        var (classic, runtimeAsync, rewritten) = Builds(program);
        Net11.AssertRuns(program, classic, runtimeAsync, MultiAssemblyBuilder.WithReplacements(program, rewritten, classic), output);
    }

    /// <summary>The exes of the classic and runtime-async app folders, and of the latter rewritten the way <c>async2 run</c> rewrites it.</summary>
    private static (string Classic, string RuntimeAsync, string Rewritten) Builds(string program)
    {
        var runtimeAsync = MultiAssemblyBuilder.BuildApp(program, runtimeAsyncFlavour: true);
        return (MultiAssemblyBuilder.BuildApp(program, runtimeAsyncFlavour: false), runtimeAsync,
            AppCache.Prepare(runtimeAsync, Path.Combine(TestEnvironment.Scratch, "app-cache")));
    }
}
