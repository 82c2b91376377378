using Async2.Fuzz;
using Async2.Tests.Corpus;
using Xunit;
using Xunit.Abstractions;

namespace Async2.Tests.Fuzz;

/// <summary>
/// A fixed-seed batch of the differential fuzzer (tests/Async2.Fuzz): random async programs,
/// compiled classic and runtime-async, the latter rewritten, must print the same. A difference
/// fails with the saved, reduced repro; `tests/fuzz.sh` runs long batches.
/// </summary>
[Trait("Category", "Slow")]
public sealed class FuzzTests(ITestOutputHelper output)
{
    private const int FirstSeed = 1;
    private const int Programs = 400;

    [Fact]
    public void Generated_programs_print_what_classic_prints()
    {
        var log = new StringWriter();
        var session = new FuzzSession(Path.Combine(TestEnvironment.RepositoryRoot, "artifacts", "fuzz"), log)
        {
            BatchSize = 50,
            ReductionBudget = TimeSpan.FromMinutes(3),
            MaxReductions = 2,
        };

        var result = session.Run(FirstSeed, Programs);

        output.WriteLine(log.ToString());
        Assert.True(result.Failures.Count == 0, string.Join("\n\n", result.Failures.Select(f =>
            $"program {f.Seed} differs; saved in {f.Folder}\nclassic:\n{f.Classic}\nrewritten:\n{f.Rewritten}\nreduced program:\n{f.ReducedSource}")));
    }
}
