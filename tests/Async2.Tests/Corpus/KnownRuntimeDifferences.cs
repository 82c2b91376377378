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

    /// <summary>
    /// The runtime's own run must print what classic async prints, unless <paramref name="program"/>
    /// is listed; then it must still differ, so that a fixed runtime gets the entry removed.
    /// </summary>
    public void AssertMatchesOrIsListed(string program, string classic, string runtimeAsync)
    {
        if (Why(program) is { } why)
            Assert.False(runtimeAsync == classic, $"{program} is listed in {fileName} as a known difference of {runtime}'s runtime async ({why}) but it now agrees with classic async: remove it from the list.");
        else
            Assert.Equal(classic, runtimeAsync);
    }
}
