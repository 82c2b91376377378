using System.Diagnostics;

namespace Async2.Cli.Bench;

/// <summary>Runs one worker process, streaming its JSON lines back as cells.</summary>
internal static class WorkerProcess
{
    public sealed record Outcome(List<BenchCell> Cells, int ExitCode, bool TimedOut, string OutputTail, bool StackOverflow);

    /// <param name="onCell">Called for each cell as soon as the worker prints it (progress).</param>
    /// <param name="net11">.NET 11's dotnet root, for the jobs that run there.</param>
    public static Outcome Run(string workerDll, BenchJob job, Runtimes.RuntimeRoot? net11, Action<BenchCell> onCell)
    {
        var info = new ProcessStartInfo(ChildProcess.DotnetHost)
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        info.ArgumentList.Add(workerDll);
        foreach (var arg in job.Args)
            info.ArgumentList.Add(arg);
        info.Environment.Remove("DOTNET_RuntimeAsync");
        if (job.OnNet11)
            (net11 ?? throw new InvalidOperationException($"{job.Label}: no .NET 11 to run on")).Apply(info);
        // .NET 10 runs runtime-async methods only under this switch; .NET 11 runs them natively.
        else if (job.Flavor == Flavor.Runtime)
            info.Environment["DOTNET_RuntimeAsync"] = "1";
        if (job.WorkstationNonConcurrentGc)
        {
            info.Environment["DOTNET_gcServer"] = "0";
            info.Environment["DOTNET_gcConcurrent"] = "0";
        }

        var cells = new List<BenchCell>();
        var tail = new Queue<string>();
        bool overflow = false;
        void Keep(string line)
        {
            lock (tail)
            {
                if (line.StartsWith("Stack overflow", StringComparison.OrdinalIgnoreCase))
                    overflow = true;
                tail.Enqueue(line);
                while (tail.Count > 12)
                    tail.Dequeue();
            }
        }

        // The first-suspension worker measures from here (bench/Async2.Bench/FirstSuspension.cs); the others ignore it.
        info.Environment["ASYNC2_BENCH_SPAWNED"] = DateTime.UtcNow.Ticks.ToString(System.Globalization.CultureInfo.InvariantCulture);
        using var process = Process.Start(info)
            ?? throw CliException.Failure("could not start 'dotnet'.", "the benchmark worker did not start", "check that the .NET SDK is on PATH");
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is { } line)
                Keep(line);
        };
        process.BeginErrorReadLine();
        var reader = Task.Run(() =>
        {
            while (process.StandardOutput.ReadLine() is { } line)
            {
                if (BenchCell.TryParse(line) is { } cell)
                {
                    lock (cells)
                        cells.Add(cell);
                    onCell(cell);
                }
                else
                {
                    Keep(line);
                }
            }
        });
        bool exited = process.WaitForExit(TimeSpan.FromSeconds(job.TimeoutSeconds));
        if (!exited)
        {
            try
            {
                process.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException)
            {
            }
            process.WaitForExit();
        }
        reader.Wait(TimeSpan.FromSeconds(10));
        process.WaitForExit();
        string tailText;
        lock (tail)
            tailText = string.Join('\n', tail);
        lock (cells)
            return new Outcome(cells.ToList(), exited ? process.ExitCode : -1, !exited, tailText, overflow);
    }
}
