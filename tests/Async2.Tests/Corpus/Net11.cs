using System.Reflection;
using System.Text.RegularExpressions;
using Async2.Cli;
using Async2.Cli.Runtimes;
using Xunit;
using Xunit.Abstractions;
using Xunit.Sdk;

namespace Async2.Tests.Corpus;

/// <summary>
/// .NET 11 for the tests: laid out by the tool's own <see cref="RuntimePacks"/> (what
/// <c>async2 runtime 11</c> does) under <see cref="TestEnvironment.Scratch"/>, so that every test
/// run of a clone shares one copy, made once. When NuGet cannot serve the packs (offline, or sources
/// without them), the .NET 11 tests report themselves skipped with NuGet's reason
/// (<see cref="Net11MemberDataAttribute"/>, <see cref="Net11FactAttribute"/>); any other failure
/// to lay it out fails each of them with its message. README's "Tests" describes this; keep in sync.
/// </summary>
internal static partial class Net11
{
    private static readonly Lazy<(RuntimeRoot? Root, Exception? Failure)> s_layout = new(() =>
    {
        try
        {
            return (RuntimePacks.Ensure(RuntimePacks.Net11, TestEnvironment.Scratch, TextWriter.Null), null);
        }
        catch (Exception e)
        {
            return (null, e);
        }
    });

    /// <summary>Why the .NET 11 tests are skipped: NuGet could not serve the packs. Null when .NET 11 is there, or failed otherwise.</summary>
    public static string? WhyUnavailable => s_layout.Value.Failure is { } failure && IsUnavailable(failure)
        ? $".NET {RuntimePacks.Net11} could not be restored from NuGet (offline, or the sources do not serve its runtime packs): {failure.Message.ReplaceLineEndings(" ")}"
        : null;

    /// <summary>The laid-out .NET 11; a failure other than an unavailable package fails the test here, loudly.</summary>
    public static RuntimeRoot Root => s_layout.Value switch
    {
        ({ } root, _) => root,
        (_, var failure) => throw new InvalidOperationException($".NET {RuntimePacks.Net11} could not be laid out for the tests: {failure!.Message}", failure),
    };

    /// <summary>
    /// A restore that failed because NuGet has no such package or version (NU1101, NU1102) or cannot
    /// reach its source (NU1301): the machine cannot have .NET 11, which is no fault of Async2's.
    /// </summary>
    public static bool IsUnavailable(Exception failure) =>
        failure is CliException && UnavailablePackage().IsMatch(failure.Message);

    [GeneratedRegex(@"\bNU(1101|1102|1301)\b")]
    private static partial Regex UnavailablePackage();

    /// <summary>Set ASYNC2_LONG_TESTS=1 to run every corpus program on .NET 11, not only the CI sample.</summary>
    public static string? WhyNotInThisRun(bool longModeOnly) =>
        WhyUnavailable ?? (longModeOnly && !TestEnvironment.LongTests ? "outside the CI sample of .NET 11 runs; ASYNC2_LONG_TESTS=1 runs it" : null);

    /// <summary>
    /// The CI sample of the corpus's .NET 11 runs, deterministic: the first program of each
    /// category (the name's prefix before '_', so every area of the corpus is reached) and every
    /// program the .NET 11 known-differences file lists (where 11's runtime async is unlike classic,
    /// the rewrite must still match classic, and each entry must still hold).
    /// </summary>
    private static bool InSample(IReadOnlyList<string> programs, string program) =>
        KnownRuntimeDifferences.Net11.Why(program) is not null
        || programs.First(p => DifferentialTests.Category(p) == DifferentialTests.Category(program)) == program;

    public static TheoryData<string> Sample(IReadOnlyList<string> programs) => new(programs.Where(p => InSample(programs, p)));

    public static TheoryData<string> OutsideSample(IReadOnlyList<string> programs) => new(programs.Where(p => !InSample(programs, p)));

    /// <summary>
    /// Runs (c11) and (a11) of one corpus program and checks them against the classic build run on
    /// .NET 11 too, not against (a) on .NET 10: Async2's promise is classic's behaviour on the
    /// runtime it runs on, and a program may print what changed between releases (a message, a
    /// runtime detail). (c11), the rewritten build, must print exactly that; (a11), .NET 11's own
    /// runtime async, too unless listed in KNOWN_RUNTIME_DIFFERENCES_NET11.txt.
    /// </summary>
    public static void AssertRuns(string program, string classic, string runtimeAsync, string rewritten, ITestOutputHelper output)
    {
        var root = Root;
        var classicOn11 = ProgramRunner.Transcript(classic, runtimeAsync: false, root);
        var rewrittenOn11 = ProgramRunner.Transcript(rewritten, runtimeAsync: false, root);
        output.WriteLine($"classic on 11:\n{classicOn11}\n(c11) rewritten on 11:\n{rewrittenOn11}");
        Assert.Equal(classicOn11, rewrittenOn11);

        var native = ProgramRunner.Transcript(runtimeAsync, runtimeAsync: false, root);
        output.WriteLine($"(a11) runtime async on 11:\n{native}");
        KnownRuntimeDifferences.Net11.AssertMatchesOrIsListed(program, classicOn11, native,
            () => ProgramRunner.Transcript(runtimeAsync, runtimeAsync: false, root));
    }
}

/// <summary>
/// A theory's MemberData whose rows are reported skipped, each with the reason, when .NET 11 is
/// unavailable (xunit 2 has no skip from inside a test; TheoryDiscoverer reads a data attribute's
/// Skip per row) or, with <c>longModeOnly</c>, outside ASYNC2_LONG_TESTS=1.
/// </summary>
[DataDiscoverer("Xunit.Sdk.MemberDataDiscoverer", "xunit.core")]
[AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
internal sealed class Net11MemberDataAttribute : RowsMemberDataAttribute
{
    public Net11MemberDataAttribute(string memberName, bool longModeOnly = false) : base(memberName)
    {
        Skip = Net11.WhyNotInThisRun(longModeOnly);
    }
}

/// <summary>A fact that needs .NET 11: skipped, with the reason, when NuGet cannot serve it.</summary>
internal sealed class Net11FactAttribute : FactAttribute
{
    public Net11FactAttribute()
    {
        Skip = Net11.WhyUnavailable;
    }
}

/// <summary>A fact that runs only in the long mode (ASYNC2_LONG_TESTS=1) and is reported skipped, saying so, otherwise.</summary>
internal sealed class LongModeFactAttribute : FactAttribute
{
    public LongModeFactAttribute()
    {
        if (!TestEnvironment.LongTests)
            Skip = "long mode only: ASYNC2_LONG_TESTS=1 runs it";
    }
}

/// <summary>Rows that run only in the long mode (ASYNC2_LONG_TESTS=1), reported skipped, saying so, otherwise.</summary>
[DataDiscoverer("Xunit.Sdk.MemberDataDiscoverer", "xunit.core")]
[AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
internal sealed class LongModeMemberDataAttribute : RowsMemberDataAttribute
{
    public LongModeMemberDataAttribute(string memberName) : base(memberName)
    {
        if (!TestEnvironment.LongTests)
            Skip = "outside the CI sample; ASYNC2_LONG_TESTS=1 runs it";
    }
}

/// <summary>Member data whose member yields rows (object[]), as TheoryData does.</summary>
internal abstract class RowsMemberDataAttribute(string memberName) : MemberDataAttributeBase(memberName, [])
{
    protected override object[] ConvertDataItem(MethodInfo testMethod, object item) =>
        item as object[] ?? throw new ArgumentException($"{MemberName} yielded a {item?.GetType().Name ?? "null"}, not a row (object[])");
}
