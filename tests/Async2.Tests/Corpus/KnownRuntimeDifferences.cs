using Xunit;

namespace Async2.Tests.Corpus;

/// <summary>
/// Corpus programs on which a runtime's own runtime async prints something other than classic
/// async on the same runtime, read from a list in tests/corpus (<c>program: what differs</c> per line,
/// # for comments): KNOWN_RUNTIME_DIFFERENCES.txt for .NET 10 under DOTNET_RuntimeAsync=1 (run (b)),
/// KNOWN_RUNTIME_DIFFERENCES_NET11.txt for .NET 11's native runtime async (run (a11)). These are
/// differences of the runtimes, not of Async2; the tests check that each listed one still differs,
/// so a list cannot go stale.
/// </summary>
internal sealed class KnownRuntimeDifferences(string runtime, string fileName)
{
    public static KnownRuntimeDifferences Net10 { get; } = new(".NET 10 (DOTNET_RuntimeAsync=1)", "KNOWN_RUNTIME_DIFFERENCES.txt");

    public static KnownRuntimeDifferences Net11 { get; } = new(".NET 11", "KNOWN_RUNTIME_DIFFERENCES_NET11.txt");

    private readonly Lazy<IReadOnlyDictionary<string, string>> _entries = new(() => ProgramNotes.Read(fileName));

    public string? Why(string program) => _entries.Value.GetValueOrDefault(program);

    /// <summary>How many runs of the runtime's build may agree with classic before a listed difference counts as gone.</summary>
    private const int RunsBeforeAnEntryIsStale = 5;

    /// <summary>
    /// The runtime's own run must print what classic async prints, unless <paramref name="program"/>
    /// is listed; then it must still differ, so that a fixed runtime gets the entry removed. Some
    /// listed differences are races inside the runtime's implementation (an order of resumptions that
    /// changes from run to run), so a run that agrees is repeated: the entry holds while any of
    /// <see cref="RunsBeforeAnEntryIsStale"/> runs differs.
    /// </summary>
    public void AssertMatchesOrIsListed(string program, string classic, string runtimeAsync, Func<string> runAgain)
    {
        if (Why(program) is not { } why)
        {
            Assert.Equal(classic, runtimeAsync);
            return;
        }
        for (var run = 1; runtimeAsync == classic && run < RunsBeforeAnEntryIsStale; run++)
            runtimeAsync = runAgain();
        Assert.False(runtimeAsync == classic, $"{program} is listed in {fileName} as a known difference of {runtime}'s runtime async ({why}) but it agreed with classic async in {RunsBeforeAnEntryIsStale} runs: remove it from the list.");
    }
}
