using System.Diagnostics;
using System.Text;
using System.Text.RegularExpressions;

namespace Async2.Fuzz;

/// <summary>A case whose rewritten run printed something else than its classic run.</summary>
/// <param name="Folder">Where original.cs, reduced.cs and transcripts.txt were saved.</param>
public sealed record FuzzFailure(int Seed, string Folder, string ReducedSource, string Classic, string Rewritten);

public sealed record FuzzResult(int Programs, IReadOnlyList<FuzzFailure> Failures, TimeSpan Elapsed);

/// <summary>
/// Runs generated cases many to a compilation: a batch is compiled classic and runtime-async once,
/// the runtime-async build rewritten, both run, and the cases' transcripts compared one by one.
/// A case that differs is run alone to confirm, then reduced and saved.
/// </summary>
public sealed partial class FuzzSession(string outputFolder, TextWriter log)
{
    private static readonly TimeSpan BatchTimeout = TimeSpan.FromMinutes(2);
    private static readonly TimeSpan CaseTimeout = TimeSpan.FromSeconds(30);

    /// <summary>
    /// The runtime settings both builds run under, compared build against build in each. Tiered
    /// compilation runs a case's methods as unoptimized tier-0 code, and a case runs too briefly for
    /// them to be promoted; with it off every method is optimized from its first call, where the JIT
    /// trusts the types of the rewriter's locals: a value spilled into a local of a sealed class it
    /// is not of gets its calls devirtualized and its type tests folded wrongly, which tier 0 never shows.
    /// The second pass costs about a third more time per batch (full optimization of every method).
    /// A variable mapped to null is removed, so an inherited setting cannot make the passes the same.
    /// </summary>
    private static readonly (string Name, IReadOnlyDictionary<string, string?> Environment)[] Modes =
    [
        ("tiered", new Dictionary<string, string?> { ["DOTNET_TieredCompilation"] = null }),
        ("optimized", new Dictionary<string, string?> { ["DOTNET_TieredCompilation"] = "0" }),
    ];

    public int BatchSize { get; init; } = 50;

    /// <summary>How long reducing one failure may take before the smallest program so far is saved.</summary>
    public TimeSpan ReductionBudget { get; init; } = TimeSpan.FromMinutes(10);

    /// <summary>Keep each batch's sources, builds and transcripts under work/ (for looking at what the cases print).</summary>
    public bool KeepWork { get; init; }

    /// <summary>How many failures are reduced; later ones are saved as generated (one bug often fails many programs).</summary>
    public int MaxReductions { get; init; } = int.MaxValue;

    public GeneratorOptions Generation { get; init; } = GeneratorOptions.Default;

    /// <summary>
    /// Compile both builds without optimization (csc /optimize-), so the rewriter gets the IL of a
    /// Debug configuration rather than a Release one.
    /// </summary>
    public bool DebugBuild { get; init; }

    private string WorkFolder => Path.Combine(outputFolder, "work");

    public FuzzResult Run(int firstSeed, int count)
    {
        var clock = Stopwatch.StartNew();
        var failures = new List<FuzzFailure>();
        for (int start = 0; start < count; start += BatchSize)
        {
            var seeds = Enumerable.Range(firstSeed + start, Math.Min(BatchSize, count - start)).ToList();
            var cases = seeds.Select(seed => Generator.Generate(seed, Generation)).ToList();
            foreach (var index in DifferingCases(cases, $"batch-{seeds[0]}"))
                failures.Add(failures.Count < MaxReductions ? Reduce(cases[index]) : Save(cases[index], cases[index]));
            log.WriteLine($"seeds {seeds[0]}..{seeds[^1]}: {failures.Count} failure(s) so far, {clock.Elapsed.TotalSeconds:F0} s");
        }
        return new FuzzResult(count, failures, clock.Elapsed);
    }

    /// <summary>The indexes of the cases whose classic and rewritten runs differ, each confirmed by a run of that case alone.</summary>
    private List<int> DifferingCases(IReadOnlyList<Case> cases, string name) =>
        RunBatch(cases, name, (confirm, suspects) => suspects.Where(confirm).ToList());

    /// <summary>
    /// Builds and runs <paramref name="cases"/> as one program, then hands the indexes of the cases
    /// whose transcripts differ to <paramref name="select"/>, with a check that runs one case alone
    /// (a crash or hang earlier in a batch leaves the later cases without output).
    /// </summary>
    private List<int> RunBatch(IReadOnlyList<Case> cases, string name, Func<Func<int, bool>, List<int>, List<int>> select)
    {
        var folder = Path.Combine(WorkFolder, name);
        if (Directory.Exists(folder))
            Directory.Delete(folder, recursive: true);
        var (classic, rewritten) = Toolchain.Build(folder, ProgramOf(cases), optimize: !DebugBuild);
        var runs = Modes.Select(mode => (Classic: Transcripts(classic, [], BatchTimeout, mode.Environment), Rewritten: Transcripts(rewritten, [], BatchTimeout, mode.Environment))).ToList();
        var suspects = Enumerable.Range(0, cases.Count).Where(i => runs.Any(run => TranscriptOf(run.Classic, i) != TranscriptOf(run.Rewritten, i))).ToList();
        bool DiffersAlone(int i)
        {
            var alone = new[] { i.ToString() };
            return Modes.Any(mode => TranscriptOf(Transcripts(classic, alone, CaseTimeout, mode.Environment), i) != TranscriptOf(Transcripts(rewritten, alone, CaseTimeout, mode.Environment), i));
        }
        var differing = select(DiffersAlone, suspects);
        if (KeepWork)
            File.WriteAllText(Path.Combine(folder, "transcripts.txt"), string.Join("\n", Enumerable.Range(0, cases.Count).Select(i => TranscriptOf(runs[0].Rewritten, i))));
        else
            Directory.Delete(folder, recursive: true);
        return differing;
    }

    /// <summary>
    /// Greedy reduction, one compilation per round: a round builds the next simplifications of the
    /// smallest differing case so far as one batch and keeps the smallest of them that still differs.
    /// </summary>
    private FuzzFailure Reduce(Case original)
    {
        log.WriteLine($"program {original.Seed} differs ({Reductions.Size(original)} statements); reducing");
        var clock = Stopwatch.StartNew();
        var smallest = original;
        var improved = true;
        while (improved && clock.Elapsed < ReductionBudget)
        {
            improved = false;
            foreach (var candidates in Reductions.Of(smallest).Chunk(BatchSize))
            {
                List<int> kept;
                try
                {
                    kept = RunBatch(candidates, $"reduce-{original.Seed}", (confirm, suspects) =>
                        suspects.OrderBy(i => Reductions.Size(candidates[i])).Where(confirm).Take(1).ToList());
                }
                catch (InvalidOperationException e)
                {
                    // A simplification the reducer should not have made; the others still count.
                    log.WriteLine($"  a reduction round failed to build: {e.Message.Split('\n')[0]}");
                    continue;
                }
                if (kept.Count > 0)
                {
                    smallest = candidates[kept[0]];
                    improved = true;
                    log.WriteLine($"  reduced to {Reductions.Size(smallest)} statements");
                    break;
                }
                if (clock.Elapsed >= ReductionBudget)
                    break;
            }
        }
        return Save(original, smallest);
    }

    private FuzzFailure Save(Case original, Case reduced)
    {
        var folder = Path.Combine(outputFolder, "failures", $"seed-{original.Seed}");
        Directory.CreateDirectory(folder);
        var originalSource = ProgramOf([original]);
        var reducedSource = ProgramOf([reduced]);
        File.WriteAllText(Path.Combine(folder, "original.cs"), originalSource);
        File.WriteAllText(Path.Combine(folder, "reduced.cs"), reducedSource);
        var (classic, rewritten) = Toolchain.Build(Path.Combine(WorkFolder, $"saved-{original.Seed}"), reducedSource, optimize: !DebugBuild);
        // The transcripts of the first mode in which the builds differ (the last when none does any more).
        string classicTranscript = "", rewrittenTranscript = "", modeName = "";
        foreach (var mode in Modes)
        {
            classicTranscript = TranscriptOf(Transcripts(classic, [], CaseTimeout, mode.Environment), 0);
            rewrittenTranscript = TranscriptOf(Transcripts(rewritten, [], CaseTimeout, mode.Environment), 0);
            modeName = $"{mode.Name}{(DebugBuild ? ", compiled /optimize-" : "")}{string.Concat(mode.Environment.Where(e => e.Value is not null).Select(e => $", {e.Key}={e.Value}"))}";
            if (classicTranscript != rewrittenTranscript)
                break;
        }
        File.WriteAllText(Path.Combine(folder, "transcripts.txt"), $"run {modeName}\n\nclassic:\n{classicTranscript}\n\nrewritten:\n{rewrittenTranscript}\n");
        Directory.Delete(Path.Combine(WorkFolder, $"saved-{original.Seed}"), recursive: true);
        log.WriteLine($"  saved {folder} (run {modeName})\n  classic:   {classicTranscript.ReplaceLineEndings(" | ")}\n  rewritten: {rewrittenTranscript.ReplaceLineEndings(" | ")}");
        return new FuzzFailure(original.Seed, folder, reducedSource, classicTranscript, rewrittenTranscript);
    }

    /// <summary>
    /// One program running <paramref name="cases"/> as cases 0, 1, …; it compiles with
    /// ProgramPrelude.cs and tests/corpus/support (the header says how to run one case).
    /// </summary>
    public static string ProgramOf(IReadOnlyList<Case> cases)
    {
        var s = new StringBuilder();
        s.AppendLine("// Generated by tests/Async2.Fuzz: compile with tests/Async2.Fuzz/ProgramPrelude.cs and tests/corpus/support/*.cs;");
        s.AppendLine("// pass case indexes as arguments to run only those.");
        s.Append(Toolchain.Usings);
        s.AppendLine();
        s.AppendLine("static class Program");
        s.AppendLine("{");
        s.AppendLine($"    static void Main(string[] args) => FuzzMain.Run(args, new Func<Task<string>>[] {{ {string.Join(", ", cases.Select((_, i) => $"Case{i}.Run"))} }});");
        s.AppendLine("}");
        for (int i = 0; i < cases.Count; i++)
            s.AppendLine().Append(Emitter.Emit(cases[i], $"Case{i}"));
        return s.ToString();
    }

    /// <summary>Per case index, what its runs printed; a crash or timeout is noted on every case it kept from printing.</summary>
    private static Dictionary<int, string> Transcripts(string assembly, string[] args, TimeSpan timeout, IReadOnlyDictionary<string, string?> environment)
    {
        var (exitCode, stdout, stderr, timedOut) = Toolchain.RunProgram(assembly, args, timeout, environment);
        var transcripts = new Dictionary<int, string>();
        foreach (var line in stdout.ReplaceLineEndings("\n").Split('\n'))
        {
            var match = CaseLine().Match(line);
            if (match.Success)
            {
                var index = int.Parse(match.Groups[1].Value);
                transcripts[index] = transcripts.GetValueOrDefault(index) + line + "\n";
            }
        }
        var ending = timedOut ? "[timed out]" : exitCode != 0 ? $"[exit code {exitCode}] {stderr.ReplaceLineEndings("\n").Split('\n')[0]}" : "";
        transcripts[-1] = ending;
        return transcripts;
    }

    /// <summary>A case's lines, or how the run ended when it printed none or not both.</summary>
    private static string TranscriptOf(Dictionary<int, string> run, int index)
    {
        var lines = run.GetValueOrDefault(index, "");
        return lines.Count(c => c == '\n') == 2 ? lines.TrimEnd() : lines + run[-1];
    }

    [GeneratedRegex(@"^case (\d+)[ :]")]
    private static partial Regex CaseLine();
}
