using System.Security.Cryptography;
using System.Text;
using Async2.Tests.Corpus;
using Xunit;
using Xunit.Abstractions;

namespace Async2.Tests.Wasm;

/// <summary>
/// The differential corpus in Mono on WebAssembly, in headless Chromium: each program's classic
/// build and its Async2 rewrite run in the same host page (tests/wasm-host), each in a fresh
/// runtime, and must print the same. Programs a browser cannot run (a blocking wait on its one
/// thread, threads, processes, files) are listed in tests/corpus/WASM_LEFT_OUT.txt with the reason.
/// Differences of Async2 on Mono not fixed yet are listed in WASM_KNOWN_DIFFERENCES.txt; those
/// must still differ, so that a fix gets its entry removed.
/// CI runs a fixed eighth of the corpus, chosen by each program's name (<see cref="InCiSlice"/>), less those;
/// ASYNC2_LONG_TESTS=1 runs all.
/// A page that misses its time in one build only gets one more try, both builds in a fresh browser.
/// The transcripts are kept in artifacts/tests/wasm-transcripts, to compare with the desktop's,
/// each written as its page posts it: a long run cut short keeps what it ran.
/// </summary>
[Trait("Category", "Slow")]
public sealed class WasmCorpusTests(ITestOutputHelper output)
{
    /// <summary>CI runs one program in <see cref="Slices"/>: slice <see cref="CiSlice"/>.</summary>
    private const int Slices = 8;

    /// <summary>
    /// The slice CI runs. A slice that rotated by date would bring programs not yet run in the
    /// browser into other people's CI runs; it can rotate once a long run has passed.
    /// </summary>
    private const int CiSlice = 4;

    /// <summary>
    /// Whether CI's slice holds <paramref name="program"/>: decided by its name alone, so that adding
    /// or listing a program leaves every other where it was (a cut by position moved programs not
    /// yet run in the browser into the slice whenever one was added).
    /// </summary>
    private static bool InCiSlice(string program) => SHA256.HashData(Encoding.UTF8.GetBytes(program))[0] % Slices == CiSlice;

    [Fact]
    public void Rewritten_programs_print_in_wasm_what_classic_prints()
    {
        var all = DifferentialTests.Programs().Cast<object[]>().Select(row => (string)row[0]).ToList();
        var leftOut = ProgramNotes.Read("WASM_LEFT_OUT.txt");
        var known = ProgramNotes.Read("WASM_KNOWN_DIFFERENCES.txt");
        Assert.Empty(leftOut.Keys.Concat(known.Keys).Except(all)); // an entry for a program that is gone

        var runnable = all.Where(p => !leftOut.ContainsKey(p)).ToList();
        var sample = TestEnvironment.LongTests ? runnable : runnable.Where(InCiSlice).ToList();
        var builds = sample.AsParallel().AsOrdered()
            .Select(p => ProgramBuilder.Build(p, [Path.Combine(TestEnvironment.CorpusFolder, p + ".cs"), .. TestEnvironment.CorpusSupportFiles]))
            .ToList();

        var kept = Directory.CreateDirectory(Path.Combine(TestEnvironment.Scratch, "wasm-transcripts")).FullName;
        var transcripts = RunPairs(builds, kept).ToArray();
        // A page that missed its 60 s in one build only is run again, both builds, in a fresh browser:
        // a program that hangs does so again, while a stall of a loaded host does not repeat.
        var timedOutInOne = Enumerable.Range(0, builds.Count)
            .Where(i => WasmRunner.IsTimeout(transcripts[2 * i]) != WasmRunner.IsTimeout(transcripts[2 * i + 1])).ToList();
        if (timedOutInOne.Count > 0)
        {
            output.WriteLine($"timed out in one build, run again: {string.Join(", ", timedOutInOne.Select(i => builds[i].Name))}");
            var again = RunPairs([.. timedOutInOne.Select(i => builds[i])], kept);
            for (var k = 0; k < timedOutInOne.Count; k++)
                (transcripts[2 * timedOutInOne[k]], transcripts[2 * timedOutInOne[k] + 1]) = (again[2 * k], again[2 * k + 1]);
        }

        var (matching, differing, fixedSince, timedOutInBoth) = (0, new List<string>(), new List<string>(), new List<string>());
        for (var i = 0; i < builds.Count; i++)
        {
            var (classic, rewritten) = (transcripts[2 * i], transcripts[2 * i + 1]);
            // Two timeouts are equal strings but compare nothing (under load a page can miss its 60 s).
            if (classic == rewritten && WasmRunner.IsTimeout(classic))
                timedOutInBoth.Add(builds[i].Name);
            else if (classic == rewritten)
            {
                matching++;
                if (known.ContainsKey(builds[i].Name))
                    fixedSince.Add(builds[i].Name);
            }
            else
            {
                if (!known.ContainsKey(builds[i].Name))
                    differing.Add(builds[i].Name);
                output.WriteLine($"--- {builds[i].Name} differs in wasm{(known.TryGetValue(builds[i].Name, out var why) ? $" (known: {why})" : "")}"
                    + $"\n(a) classic:\n{classic}\n(c) rewritten:\n{rewritten}");
            }
        }
        output.WriteLine($"wasm corpus: {builds.Count} run, {matching} matching, {timedOutInBoth.Count} timed out in both builds ({string.Join(", ", timedOutInBoth)}), "
            + $"{builds.Count - matching - timedOutInBoth.Count - differing.Count} differing as listed in WASM_KNOWN_DIFFERENCES.txt, "
            + $"{differing.Count} differing unlisted, {leftOut.Count} left out (WASM_LEFT_OUT.txt)"
            + (TestEnvironment.LongTests ? "" : $", {runnable.Count - builds.Count} not in CI's slice ({CiSlice} of {Slices}; ASYNC2_LONG_TESTS=1 runs all)"));
        Assert.Empty(differing);
        Assert.True(fixedSince.Count == 0, $"listed in WASM_KNOWN_DIFFERENCES.txt but now the same: {string.Join(", ", fixedSince)}; remove them from the list");
    }

    /// <summary>The classic and rewritten transcripts of each build, in turn, each also written to <paramref name="kept"/> as it comes.</summary>
    private static IReadOnlyList<string> RunPairs(IReadOnlyList<ProgramBuild> builds, string kept) =>
        WasmRunner.Run([.. builds.SelectMany(b => new[] { new WasmRun(b.Classic), new WasmRun(b.Rewritten) })], perRun: TimeSpan.FromSeconds(60),
            recorded: (run, transcript) => File.WriteAllText(Path.Combine(kept, builds[run / 2].Name + (run % 2 == 0 ? ".classic.txt" : ".rewritten.txt")), transcript));
}
