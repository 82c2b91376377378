using Async2.Tests.Corpus;
using Xunit;
using Xunit.Abstractions;

namespace Async2.Tests.Wasm;

/// <summary>
/// The differential corpus in Mono on WebAssembly, in headless Chromium: each program's classic
/// build and its Async2 rewrite run in the same host page (tests/wasm-host), each in a fresh
/// runtime, and must print the same. Programs a browser cannot run (a blocking wait on its one
/// thread, threads, processes, files) are listed in tests/corpus/WASM_LEFT_OUT.txt with the reason.
/// CI runs a rotating eighth of the rest, chosen by the UTC date; ASYNC2_LONG_TESTS=1 runs all.
/// The transcripts are kept in artifacts/tests/wasm-transcripts, to compare with the desktop's.
/// </summary>
public sealed class WasmCorpusTests(ITestOutputHelper output)
{
    /// <summary>Programs per CI slice: one in <see cref="Slices"/>, so a week and a day covers the corpus.</summary>
    private const int Slices = 8;

    [Fact]
    public void Rewritten_programs_print_in_wasm_what_classic_prints()
    {
        var all = DifferentialTests.Programs().Cast<object[]>().Select(row => (string)row[0]).ToList();
        var leftOut = ProgramNotes.Read("WASM_LEFT_OUT.txt");
        Assert.Empty(leftOut.Keys.Except(all)); // an entry for a program that is gone

        var runnable = all.Where(p => !leftOut.ContainsKey(p)).ToList();
        var slice = DateTime.UtcNow.DayOfYear % Slices;
        var sample = TestEnvironment.LongTests ? runnable : runnable.Where((_, i) => i % Slices == slice).ToList();
        var builds = sample.AsParallel().AsOrdered()
            .Select(p => ProgramBuilder.Build(p, [Path.Combine(TestEnvironment.CorpusFolder, p + ".cs"), .. TestEnvironment.CorpusSupportFiles]))
            .ToList();

        var transcripts = WasmRunner.Run([.. builds.SelectMany(b => new[] { new WasmRun(b.Classic), new WasmRun(b.Rewritten) })], perRun: TimeSpan.FromSeconds(60));

        var differing = new List<string>();
        var kept = Directory.CreateDirectory(Path.Combine(TestEnvironment.Scratch, "wasm-transcripts")).FullName;
        for (var i = 0; i < builds.Count; i++)
        {
            var (classic, rewritten) = (transcripts[2 * i], transcripts[2 * i + 1]);
            File.WriteAllText(Path.Combine(kept, builds[i].Name + ".classic.txt"), classic);
            File.WriteAllText(Path.Combine(kept, builds[i].Name + ".rewritten.txt"), rewritten);
            if (classic != rewritten)
            {
                differing.Add(builds[i].Name);
                output.WriteLine($"--- {builds[i].Name} differs in wasm\n(a) classic:\n{classic}\n(c) rewritten:\n{rewritten}");
            }
        }
        output.WriteLine($"wasm corpus: {builds.Count} run, {builds.Count - differing.Count} matching, {leftOut.Count} left out (WASM_LEFT_OUT.txt)"
            + (TestEnvironment.LongTests ? "" : $", {runnable.Count - builds.Count} not in today's slice ({slice} of {Slices}; ASYNC2_LONG_TESTS=1 runs all)"));
        Assert.Empty(differing);
    }
}
