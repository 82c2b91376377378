using System.Globalization;
using System.Text;
using Async2.Tests.Corpus;
using Xunit;
using Xunit.Abstractions;

namespace Async2.Tests.Wasm;

/// <summary>
/// The WebAssembly bench (bench/wasm/WasmBench.cs; bench/README.md, "WebAssembly"): the program's
/// classic build and its Async2 rewrite on the same page in headless Chromium, alternating, and
/// Async2 ÷ classic per row. In CI a short smoke run checks that the rows and checksums agree;
/// ASYNC2_LONG_TESTS=1 (bench/wasm.sh) measures for real and writes the table to
/// artifacts/bench-wasm/README.md.
/// </summary>
[Trait("Category", "Slow")]
public sealed class WasmBenchTests(ITestOutputHelper output)
{
    [Fact]
    public void Async2_against_classic_in_the_browser()
    {
        var (rounds, windowMs) = TestEnvironment.LongTests ? (3, 2000) : (1, 50);
        var build = ProgramBuilder.Build("WasmBench", [Path.Combine(TestEnvironment.RepositoryRoot, "bench", "wasm", "WasmBench.cs")]);
        var window = windowMs.ToString(CultureInfo.InvariantCulture);
        var transcripts = WasmRunner.Run(
            [.. Enumerable.Range(0, rounds).SelectMany(_ => new[] { new WasmRun(build.Classic, window), new WasmRun(build.Rewritten, window) })],
            perRun: TimeSpan.FromMinutes(3));

        // Per build and row, the best of the rounds (the least disturbed by the machine's other work).
        var classic = Best(transcripts.Where((_, i) => i % 2 == 0));
        var rewritten = Best(transcripts.Where((_, i) => i % 2 == 1));
        Assert.Equal(classic.Select(r => (r.Name, r.Checksum)), rewritten.Select(r => (r.Name, r.Checksum)));

        var table = new StringBuilder()
            .AppendLine($"Mono on WebAssembly ({Environment.ProcessorCount} cores, headless Chromium, best of {rounds} × {windowMs} ms)")
            .AppendLine()
            .AppendLine("| row | classic | Async2 | Async2 ÷ classic |")
            .AppendLine("| --- | ---: | ---: | ---: |");
        foreach (var (c, a) in classic.Zip(rewritten))
            table.AppendLine(CultureInfo.InvariantCulture, $"| {c.Name} | {c.Nanoseconds:0.0} | {a.Nanoseconds:0.0} | {a.Nanoseconds / c.Nanoseconds:0.00} |");
        output.WriteLine(table.ToString());
        if (TestEnvironment.LongTests)
        {
            var folder = Directory.CreateDirectory(Path.Combine(TestEnvironment.RepositoryRoot, "artifacts", "bench-wasm")).FullName;
            File.WriteAllText(Path.Combine(folder, "README.md"), table.ToString());
        }
    }

    private sealed record Row(string Name, double Nanoseconds, string Checksum);

    private static List<Row> Best(IEnumerable<string> transcripts) =>
        transcripts
            .SelectMany(t =>
            {
                Assert.EndsWith("[exit code 0]", t);
                return t.Split('\n').Where(line => line.Contains('\t')).Select(line => line.Split('\t'))
                    .Select(cells => new Row(cells[0], double.Parse(cells[1], CultureInfo.InvariantCulture), cells[2]));
            })
            .GroupBy(r => r.Name)
            .Select(rows => rows.MinBy(r => r.Nanoseconds)!)
            .ToList();
}
