using Xunit;

namespace Async2.Tests.Corpus;

/// <summary>
/// Corpus programs on which the runtime's own runtime async (DOTNET_RuntimeAsync=1) prints
/// something other than classic async, read from tests/corpus/KNOWN_RUNTIME_DIFFERENCES.txt
/// (<c>program: why</c> per line, # for comments). These are differences of the .NET 10 runtime,
/// not of Async2; the tests check that each listed one still differs, so the list cannot go stale.
/// </summary>
internal static class KnownRuntimeDifferences
{
    private static readonly Lazy<IReadOnlyDictionary<string, string>> s_entries = new(() => ProgramNotes.Read("KNOWN_RUNTIME_DIFFERENCES.txt"));

    public static string? Why(string program) => s_entries.Value.GetValueOrDefault(program);

    /// <summary>
    /// Run (b) must print what classic async prints, unless <paramref name="program"/> is listed;
    /// then it must still differ, so that a fixed runtime gets the entry removed.
    /// </summary>
    public static void AssertMatchesOrIsListed(string program, string classic, string runtime)
    {
        if (Why(program) is { } why)
            Assert.False(runtime == classic, $"{program} is listed as a known runtime difference ({why}) but the runtime now agrees with classic async: remove it from the list.");
        else
            Assert.Equal(classic, runtime);
    }
}
