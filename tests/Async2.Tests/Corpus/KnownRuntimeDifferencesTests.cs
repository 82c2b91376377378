using Xunit;
using Xunit.Sdk;

namespace Async2.Tests.Corpus;

/// <summary>
/// The check behind the known-differences lists: an entry must hold while the runtime's run
/// differs in some run (its differences can be races), and must fail once it never does.
/// </summary>
public sealed class KnownRuntimeDifferencesTests
{
    private const string Listed = "coordination_primitives";

    [Fact]
    public void A_listed_difference_that_shows_in_a_later_run_still_holds()
    {
        var runs = new Queue<string>(["classic", "classic", "other order"]);
        KnownRuntimeDifferences.Net11.AssertMatchesOrIsListed(Listed, "classic", "classic", runs.Dequeue);
        Assert.Empty(runs);
    }

    [Fact]
    public void A_listed_difference_that_never_shows_is_stale()
    {
        var failure = Assert.Throws<FalseException>(() =>
            KnownRuntimeDifferences.Net11.AssertMatchesOrIsListed(Listed, "classic", "classic", () => "classic"));
        Assert.Contains("agreed with classic async in 5 runs: remove it from the list", failure.Message);
    }

    [Fact]
    public void An_unlisted_program_must_agree_at_the_first_run()
    {
        Assert.Throws<EqualException>(() =>
            KnownRuntimeDifferences.Net11.AssertMatchesOrIsListed("not_listed", "classic", "other", () => "classic"));
    }
}
