using System.CommandLine;
using System.Diagnostics;
using System.Text.Json;
using Async2.Cli.Bench;
using Async2.Cli.Runtimes;
using Async2.Rewriter;

namespace Async2.Cli;

/// <summary>
/// <c>async2 bench [--quick] [-o dir] [--only a,b] [--no-charts]</c>: builds bench/Async2.Bench classic,
/// runtime-async, and runtime-async with [assembly: FlowContexts] (cached under artifacts/bench),
/// rewrites both runtime-async builds (with Async2.Runtime as its package gives this machine,
/// RuntimeLibraryImage), runs every benchmark in worker processes (Sync/Task/ValueTask,
/// Runtime under DOTNET_RuntimeAsync=1, Async2 = flowing mode, Async2Capture = default mode), and
/// runs the same builds again on .NET 11 (laid out from its NuGet runtime packs, RuntimePacks):
/// Task11, Runtime11 (natively), Async2_11, Async2Capture_11. Writes Markdown tables, SVG charts and
/// the raw cells to a results folder. The application scenarios add a web API
/// (bench/Async2.Bench.WebApi, built and rewritten the same ways) loaded by wrk; seed 003's
/// comparison adds its Go chain (bench/Async2.Bench.Go, Debian's golang).
/// </summary>
internal static class BenchCommand
{
    private const string Worker = "Async2.Bench";
    /// <summary>The worker's cross-assembly callees, built and rewritten before it.</summary>
    private const string Library = "Async2.Bench.Library";
    private const string Charts = "Async2.Bench.Charts";
    /// <summary>The application scenarios' web API, built the worker's three ways.</summary>
    private const string WebApi = "Async2.Bench.WebApi";
    /// <summary>Seed 003's chain in Go.</summary>
    private const string GoSource = "Async2.Bench.Go/chain.go";

    public const string Details = """
        Details:
          Builds bench/Async2.Bench classic, runtime-async, and runtime-async with [assembly: FlowContexts]
          (cached under artifacts/bench), rewrites both runtime-async builds with Async2, and runs the
          seed's benchmarks side by side, each variant in worker processes: Sync, Task, ValueTask (classic
          build), Runtime (runtime-async build under DOTNET_RuntimeAsync=1), Async2 (the FlowContexts build
          rewritten: seed 002's flowing async2 semantics) and Async2Capture (the plain build rewritten:
          Async2's default, context-compatible mode), both on the stock runtime. The same builds run again
          on .NET 11, rolled forward: Task11, Runtime11 (runtime async natively), Async2_11 and
          Async2Capture_11; .NET 11 is restored once from its NuGet runtime packs into the tool cache
          (as 'async2 runtime 11' does), and when it cannot be, those columns say why and the rest runs.
          The application scenarios ('apps') also build bench/Async2.Bench.WebApi those ways and load each
          build with wrk on 127.0.0.1 (Debian package 'wrk'; without it those cells are marked failed).
          Seed 003's comparison ('go') builds bench/Async2.Bench.Go with Debian's golang, installing it
          with apt-get when 'go' is missing. Progress goes to stderr.
          Writes README.md (Markdown tables with ratios to Task, bytes allocated per operation, the
          machine and versions), results.json (every cell) and SVG charts to the results folder.

        Exit codes:
          0  results written (failed cells are marked in the tables)
          1  a build failed
          2  usage error
        """;

    public static Command Create()
    {
        var quick = new Option<bool>("--quick")
        {
            Description = "a smoke run: fewer depths, shorter windows (a few minutes)",
        };
        var output = PathArgument.RefusingEmpty(new Option<string?>("--output", "-o")
        {
            Description = "the results folder (default bench/results/<timestamp>[-quick])",
            HelpName = "folder",
        });
        var only = new Option<string[]>("--only")
        {
            Description = $"run only these benchmarks, comma-separated or repeated: {string.Join(", ", BenchPlan.AllBenchmarks)}",
            HelpName = "names",
        };
        only.Validators.Add(result =>
        {
            var names = BenchmarkNames(result.GetValueOrDefault<string[]>()).ToList();
            // An empty list (--only "", a shell variable never set) would otherwise mean every benchmark.
            if (result.Tokens.Count > 0 && names.Count == 0)
                result.AddError($"--only names no benchmark; choose from {string.Join(", ", BenchPlan.AllBenchmarks)}, or leave it out to run all.");
            foreach (var name in names.Where(name => !BenchPlan.AllBenchmarks.Contains(name)))
                result.AddError($"'{name}' is not a benchmark; choose from {string.Join(", ", BenchPlan.AllBenchmarks)}.");
        });
        var processes = new Option<int?>("--processes")
        {
            Description = $"worker processes per variant for the benchmarks that resume through the thread pool ({string.Join(", ", BenchPlan.ThreadPoolBound)}); "
                + $"the median process is reported (default {BenchPlan.ThreadPoolBoundProcesses}, 1 with --quick)",
            HelpName = "n",
        };
        processes.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<int?>() is < 1)
                result.AddError("--processes must be 1 or more.");
        });
        var noCharts = new Option<bool>("--no-charts")
        {
            Description = "skip the SVG charts",
        };
        var command = new Command("bench", "Runs the seed's benchmarks side by side (see bench/README.md).")
        {
            quick,
            output,
            only,
            processes,
            noCharts,
        };
        command.SetAction(parseResult => Run(
            parseResult.GetValue(quick),
            parseResult.GetValue(output),
            BenchmarkNames(parseResult.GetValue(only)).ToList(),
            parseResult.GetValue(processes),
            charts: !parseResult.GetValue(noCharts)));
        return command;
    }

    private static bool IsAsync2(Flavor flavor) => flavor is Flavor.Async2 or Flavor.Async2Capture;

    private static IEnumerable<string> BenchmarkNames(string[]? onlyValues) =>
        (onlyValues ?? []).SelectMany(value => value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));

    /// <param name="only">The benchmarks to run; all of them when empty.</param>
    /// <param name="processes">Worker processes per variant for BenchPlan.ThreadPoolBound; null for the mode's default.</param>
    private static int Run(bool quick, string? output, List<string> only, int? processes, bool charts)
    {
        var stopwatch = Stopwatch.StartNew();
        var repository = FindRepository();
        var artifacts = Path.Combine(repository, "artifacts", "bench");
        var started = DateTimeOffset.Now;
        output ??= Path.Combine(repository, "bench", "results", started.ToString("yyyyMMdd-HHmmss") + (quick ? "-quick" : ""));
        output = Path.GetFullPath(output);

        // 1. Builds (incremental; a rewrite is redone only when its runtime-async build changed).
        var project = Path.Combine(repository, "bench", Worker, Worker + ".csproj");
        var library = Path.Combine(repository, "bench", Library, Library + ".csproj");
        string BuildBoth(string folder, bool runtimeAsync, bool flowContexts = false)
        {
            var callees = Build(library, Library, Path.Combine(artifacts, folder + "-library"), runtimeAsync, flowContexts);
            return Build(project, Worker, Path.Combine(artifacts, folder), runtimeAsync, flowContexts, callees);
        }
        var classic = BuildBoth("classic", runtimeAsync: false);
        var runtimeAsync = BuildBoth("runtime-async", runtimeAsync: true);
        var flowing = BuildBoth("runtime-async-flowing", runtimeAsync: true, flowContexts: true);
        var rewriteNotes = new List<string>();
        var workers = new Dictionary<Flavor, string>
        {
            [Flavor.Classic] = classic,
            [Flavor.Runtime] = runtimeAsync,
            [Flavor.Async2Capture] = RewriteWithLibrary(runtimeAsync, Path.Combine(artifacts, "async2-capture"), Flavor.Async2Capture, rewriteNotes),
            [Flavor.Async2] = RewriteWithLibrary(flowing, Path.Combine(artifacts, "async2-flowing"), Flavor.Async2, rewriteNotes),
        };
        var (net11, net11Problem) = LayOutNet11();
        bool apps = only.Count == 0 || only.Contains(WebApiBench.Benchmark);
        var webApiServers = apps ? BuildWebApi(Path.Combine(repository, "bench", WebApi, WebApi + ".csproj"), artifacts, net11, rewriteNotes) : [];
        var async2Folders = workers.Where(w => IsAsync2(w.Key)).Select(w => w.Value)
            .Concat(webApiServers.Where(s => IsAsync2(s.Flavor)).Select(s => s.Dll))
            .Select(dll => Path.GetDirectoryName(dll)!).Distinct().ToList();
        var runtimeLibrary = RuntimeLibraryImage.Install(repository, async2Folders, Progress);
        string? chartsDll = charts
            ? TryBuildCharts(Path.Combine(repository, "bench", Charts, Charts + ".csproj"), Path.Combine(artifacts, "charts"))
            : null;

        // 2. Worker processes.
        var run = new BenchRun
        {
            Mode = quick ? "quick" : "full",
            ThreadPoolBoundProcesses = processes ?? BenchPlan.DefaultProcesses(quick),
            Started = started,
            Machine = MachineInfo.Collect(repository),
        };
        run.Problems.AddRange(rewriteNotes);
        run.Machine["Async2.Runtime"] = runtimeLibrary.Description;
        if (runtimeLibrary.Problem is { } problem)
            run.Problems.Add(problem);
        run.Machine[".NET 11"] = net11 is not null ? $"{net11.Version} (runtime packs from NuGet, net10.0 builds rolled forward)" : "skipped: " + net11Problem;
        run.Net11Skipped = net11Problem;
        var jobs = BenchPlan.Create(quick, only, net11 is not null, run.ThreadPoolBoundProcesses);
        Progress($"running {jobs.Count} worker processes ({run.Mode}); results go to {Path.GetRelativePath(repository, output)}");
        for (int i = 0; i < jobs.Count; i++)
        {
            var job = jobs[i];
            Progress($"[{i + 1,2}/{jobs.Count}] {job.Benchmark} · {job.Label}   (elapsed {Elapsed(stopwatch)})");
            var jobWatch = Stopwatch.StartNew();
            var outcome = WorkerProcess.Run(workers[job.Flavor], job, net11, cell =>
                Progress($"        {cell.Variant,-16} {cell.Case,-34} {(cell.Failed ? cell.Note : Format.Number(cell.Value) + " " + cell.Unit)}"));
            run.Cells.AddRange(outcome.Cells);
            if (outcome.TimedOut || outcome.ExitCode != 0)
            {
                var what = outcome.TimedOut ? $"timed out after {job.TimeoutSeconds} s" : $"exit code {outcome.ExitCode}";
                var overflow = outcome.StackOverflow || outcome.OutputTail.Contains("Stack overflow", StringComparison.OrdinalIgnoreCase);
                if (job.ReportsCrash && outcome.Cells.Count == 0)
                {
                    var reason = overflow ? "stack overflow (process ended)" : what;
                    run.Cells.Add(new BenchCell { Benchmark = job.Benchmark, Variant = job.CrashVariant!, Case = job.CrashCase!, Unit = "ms", Note = "fails: " + reason });
                    Progress($"        {job.CrashVariant,-16} {job.CrashCase,-34} fails: {reason}");
                }
                else
                {
                    run.Problems.Add($"{job.Benchmark} ({job.Label}): {what}\n{outcome.OutputTail}");
                    Progress($"        worker {what}; last output:\n{Indent(outcome.OutputTail)}");
                }
            }
            Progress($"        done in {jobWatch.Elapsed.TotalSeconds:F1} s");
        }
        var medians = BenchCell.MedianOfProcesses(run.Cells);
        run.Cells.Clear();
        run.Cells.AddRange(medians);
        if (only.Count == 0 || only.Contains(GoChain.Benchmark))
        {
            Progress($"[go] {GoChain.Benchmark} · seed 003's chain in Go   (elapsed {Elapsed(stopwatch)})");
            var (cell, version) = GoChain.Run(Path.Combine(repository, "bench", GoSource), Path.Combine(artifacts, "go"), quick, Progress);
            Progress($"        {cell.Variant,-16} {cell.Case,-34} {(cell.Failed ? cell.Note : Format.Number(cell.Value) + " " + cell.Unit)}");
            run.Machine["go"] = version;
            run.Cells.Add(cell);
        }
        if (apps)
        {
            PipelineCheck.FailDifferentOutputs(run.Cells);
            Progress($"[web] {WebApiBench.Benchmark} · web API under wrk   (elapsed {Elapsed(stopwatch)})");
            var (cells, wrk) = WebApiBench.Run(webApiServers, quick, Progress);
            run.Machine["wrk"] = wrk;
            run.Cells.AddRange(cells);
        }
        run.DurationSeconds = stopwatch.Elapsed.TotalSeconds;

        // 3. Results: raw cells, README with tables, charts.
        Directory.CreateDirectory(output);
        var json = Path.Combine(output, "results.json");
        File.WriteAllText(json, JsonSerializer.Serialize(run, BenchCell.Json));
        var chartFiles = new List<string>();
        if (chartsDll is not null)
        {
            var (exitCode, log) = ChildProcess.RunCaptured([chartsDll, json, output]);
            if (exitCode == 0)
                chartFiles.AddRange(log.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Where(l => l.EndsWith(".svg")));
            else
                run.Problems.Add($"charts: exit code {exitCode}\n{log.Trim()}");
        }
        else if (charts)
        {
            run.Problems.Add("charts: the chart project did not build; no SVGs written (see the log above)");
        }
        File.WriteAllText(Path.Combine(output, "README.md"), BenchReport.Markdown(run, chartFiles));
        Progress($"done in {Elapsed(stopwatch)}: {Path.GetRelativePath(repository, Path.Combine(output, "README.md"))}");
        Console.WriteLine(Path.Combine(output, "README.md"));
        return ExitCodes.Success;
    }

    /// <param name="flowContexts">Defines ASYNC2_FLOWING, which puts [assembly: FlowContexts] on the worker.</param>
    /// <param name="library">For the worker: the Async2.Bench.Library build it references.</param>
    private static string Build(string project, string name, string folder, bool runtimeAsync, bool flowContexts = false, string? library = null)
    {
        var kind = (runtimeAsync ? "runtime-async" : "classic") + (flowContexts ? ", flowing contexts" : "");
        Progress($"dotnet build {name} ({kind}) -> {folder}");
        var (exitCode, log) = ChildProcess.RunCaptured(
        [
            "build", project, "-c", "Release", "-nologo", "-v", "quiet",
            $"-p:Async2RuntimeAsync={(runtimeAsync ? "true" : "false")}",
            $"-p:Async2FlowContexts={(flowContexts ? "true" : "false")}",
            $"-p:OutputPath={folder}{Path.DirectorySeparatorChar}",
            $"-p:BaseIntermediateOutputPath={folder}-obj{Path.DirectorySeparatorChar}",
            .. library is null ? Array.Empty<string>() : [$"-p:Async2BenchLibrary={library}"],
        ]);
        if (exitCode != 0)
            throw CliException.Failure($"building {name} ({kind}) failed.", log.Trim(), "make sure 'dotnet build' works in this repository");
        return Path.Combine(folder, name + ".dll");
    }

    /// <summary>
    /// .NET 11's dotnet root, laid out from its NuGet runtime packs the first time (RuntimePacks);
    /// or null and why not, and the run goes on without the 11 variants.
    /// </summary>
    private static (RuntimeRoot? Root, string? Problem) LayOutNet11()
    {
        try
        {
            var root = RuntimePacks.Ensure(RuntimePacks.Net11, ToolCache.Root, Console.Error);
            Progress($".NET 11: {root.Folder}");
            return (root, null);
        }
        catch (CliException e)
        {
            var reason = string.Join(" ", e.Message.Split('\n', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
                .Replace("error: ", "", StringComparison.Ordinal);
            Progress($"warning: .NET 11 could not be laid out, so its variants are skipped: {reason}");
            return (null, reason);
        }
    }

    /// <summary>
    /// The web API classic, runtime-async, and runtime-async with [assembly: FlowContexts]; the last
    /// two rewritten, as the worker is; each on the stock runtime, then on .NET 11 when there is one.
    /// Classic first: its answers are the ones the others must give.
    /// </summary>
    private static List<WebApiBench.Server> BuildWebApi(string project, string artifacts, RuntimeRoot? net11, List<string> notes)
    {
        string Folder(string name) => Path.Combine(artifacts, "webapi-" + name);
        var runtimeAsync = Build(project, WebApi, Folder("runtime-async"), runtimeAsync: true);
        var flowing = Build(project, WebApi, Folder("runtime-async-flowing"), runtimeAsync: true, flowContexts: true);
        (string Variant, Flavor Flavor, string Dll)[] builds =
        [
            ("Task", Flavor.Classic, Build(project, WebApi, Folder("classic"), runtimeAsync: false)),
            ("Runtime", Flavor.Runtime, runtimeAsync),
            ("Async2", Flavor.Async2, Rewrite(flowing, Folder("async2-flowing"), Flavor.Async2, notes)),
            ("Async2Capture", Flavor.Async2Capture, Rewrite(runtimeAsync, Folder("async2-capture"), Flavor.Async2Capture, notes)),
        ];
        return builds.Select(b => new WebApiBench.Server(b.Variant, b.Flavor, b.Dll))
            .Concat(net11 is null ? [] : builds.Select(b => new WebApiBench.Server(BenchPlan.Name(b.Variant, onNet11: true), b.Flavor, b.Dll, net11)))
            .ToList();
    }

    /// <summary>
    /// Rewrites the library the worker calls, then the worker against it (callee first: a caller
    /// calls a callee's variants directly only when it sees the callee's rewritten form).
    /// </summary>
    private static string RewriteWithLibrary(string worker, string folder, Flavor flavor, List<string> notes)
    {
        var library = Rewrite(Path.Combine(Path.GetDirectoryName(worker)!, Library + ".dll"), folder, flavor, notes);
        return Rewrite(worker, folder, flavor, notes, [library]);
    }

    /// <param name="notes">Receives a line per method the rewriter left classic.</param>
    /// <param name="references">Rewritten assemblies the input calls into.</param>
    private static string Rewrite(string runtimeAsync, string folder, Flavor flavor, List<string> notes, IReadOnlyList<string>? references = null)
    {
        var rewritten = Path.Combine(folder, Path.GetFileName(runtimeAsync));
        // Its direct calls are tied to the exact builds of the assemblies it calls: redone after theirs.
        if (File.Exists(rewritten)
            && new[] { runtimeAsync, typeof(AssemblyRewriter).Assembly.Location }.Concat(references ?? []).All(input => File.GetLastWriteTimeUtc(rewritten) > File.GetLastWriteTimeUtc(input)))
        {
            Progress($"async2 rewrite: {rewritten} is up to date");
        }
        else
        {
            Progress($"async2 rewrite {runtimeAsync} -o {rewritten}");
            Directory.CreateDirectory(folder);
            var report = AssemblyRewriter.Rewrite(new RewriteRequest(runtimeAsync, rewritten) { ReferencePaths = references ?? [] });
            foreach (var method in report.Methods.Where(m => !m.Rewritten))
                notes.Add($"rewrite ({flavor}): {method.Method} left classic: {method.Reason} (its {flavor} cells measure classic code)");
            if (File.Exists(Path.ChangeExtension(runtimeAsync, ".runtimeconfig.json")))
                File.Copy(Path.ChangeExtension(runtimeAsync, ".runtimeconfig.json"), Path.ChangeExtension(rewritten, ".runtimeconfig.json"), overwrite: true);
        }
        return rewritten;
    }

    private static string? TryBuildCharts(string project, string folder)
    {
        try
        {
            return Build(project, Charts, folder, runtimeAsync: false);
        }
        catch (CliException e)
        {
            Progress($"warning: the chart project did not build, so no SVG charts: {e.Message}");
            return null;
        }
    }

    private static void Progress(string line) => Console.Error.WriteLine(line);

    private static string Elapsed(Stopwatch stopwatch) => $"{(int)stopwatch.Elapsed.TotalMinutes}m{stopwatch.Elapsed.Seconds:D2}s";

    private static string Indent(string text) => string.Join('\n', text.Split('\n').Select(l => "          " + l));

    private static string FindRepository()
    {
        foreach (var start in new[] { Environment.CurrentDirectory, AppContext.BaseDirectory })
            for (var folder = new DirectoryInfo(start); folder is not null; folder = folder.Parent)
                if (File.Exists(Path.Combine(folder.FullName, "Async2.slnx")) && Directory.Exists(Path.Combine(folder.FullName, "bench", Worker)))
                    return folder.FullName;
        throw CliException.Failure("cannot find the Async2 repository.", "bench builds bench/Async2.Bench from source and no Async2.slnx with a bench folder was found above this folder",
            "run 'async2 bench' from inside a clone of the repository");
    }
}
