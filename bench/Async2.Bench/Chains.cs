using System.Diagnostics;

namespace Async2.Bench;

/// <summary>
/// Seed 003: a chain of N AddOne tasks, each awaiting the previous one, completed from the far end
/// (with and without a Task.Yield() in every link); and CountRecursivelyAsync(n), which recurses
/// without ever suspending.
/// </summary>
internal static partial class Chains
{
    private static async Task<int> AddOne(Task<int> input) => 1 + await input;

    private static async Task<int> AddOneYield(Task<int> input)
    {
        var result = 1 + await input;
        await Task.Yield();
        return result;
    }

    private static async Task<int> CountRecursivelyAsync(int count) =>
        count <= 0 ? count : 1 + await CountRecursivelyAsync(count - 1);

    public static void Run(Options options)
    {
        int links = options.Quick ? 100_000 : 1_000_000;
        ChainOf(options, links, Model.Name, "AddOne", (length, source) =>
        {
            var output = AddOne(source);
            for (int i = 1; i < length; i++)
                output = AddOne(output);
            return () => Runner.Wait(output);
        });
        ChainOf(options, links, Model.Name, "AddOne+Yield", (length, source) =>
        {
            var output = AddOneYield(source);
            for (int i = 1; i < length; i++)
                output = AddOneYield(output);
            return () => Runner.Wait(output);
        });
        if (Model.MeasuresValueTask)
        {
            ChainOf(options, links, "ValueTask", "AddOne", (length, source) =>
            {
                var output = AddOneValueTask(new ValueTask<int>(source));
                for (int i = 1; i < length; i++)
                    output = AddOneValueTask(output);
                return () => Runner.Wait(output);
            });
            ChainOf(options, links, "ValueTask", "AddOne+Yield", (length, source) =>
            {
                var output = AddOneYieldValueTask(new ValueTask<int>(source));
                for (int i = 1; i < length; i++)
                    output = AddOneYieldValueTask(output);
                return () => Runner.Wait(output);
            });
        }
        Count(options, Model.Name, n => Runner.Wait(CountRecursivelyAsync(n)));
        if (Model.MeasuresValueTask)
            Count(options, "ValueTask", n => Runner.Wait(CountRecursivelyValueTask(n)));
    }

    /// <summary>Builds the chain and completes it; the time covers both, as in seed 003.</summary>
    private static void ChainOf(Options options, int links, string variant, string name, Func<int, Task<int>, Func<int>> build)
    {
        Sample Round(int length)
        {
            long bytes = GC.GetTotalAllocatedBytes(precise: true);
            long t0 = Stopwatch.GetTimestamp();
            var source = new TaskCompletionSource<int>();
            var finish = build(length, source.Task);
            source.SetResult(-1);
            int result = finish();
            double ms = Runner.Ms(Stopwatch.GetTimestamp() - t0);
            bytes = GC.GetTotalAllocatedBytes(precise: true) - bytes;
            if (result != length - 1)
                throw new InvalidOperationException($"chain of {length} gave {result}");
            return new Sample(ms, (double)bytes / length);
        }
        for (int i = 0; i < 20; i++)
            Round(1000);
        var (median, bytesPerOp, rounds) = Runner.Run(options, () => Round(links));
        Report.Cell("chain", variant, $"{name} x {links:N0}", "ms", median, bytesPerOp, rounds);
    }

    private static void Count(Options options, string variant, Func<int, int> count)
    {
        const int n = 10_000;
        Sample Round()
        {
            long bytes = GC.GetAllocatedBytesForCurrentThread();
            long t0 = Stopwatch.GetTimestamp();
            int result = 0;
            for (int i = 0; i < 100; i++)
                result = count(n);
            double us = Runner.Ms(Stopwatch.GetTimestamp() - t0) * 1000 / 100;
            bytes = GC.GetAllocatedBytesForCurrentThread() - bytes;
            if (result != n)
                throw new InvalidOperationException($"CountRecursivelyAsync({n}) = {result}");
            return new Sample(us, bytes / (100.0 * n));
        }
        Runner.Measure(options, "chain", variant, $"CountRecursivelyAsync({n:N0}) (µs per call)", "us", Round);
    }

    /// <summary>
    /// CountRecursivelyAsync(n) once, in a process of its own (a stack overflow ends the process;
    /// the driver reports that as the cell's result).
    /// </summary>
    public static void RunDeep(Options options, string variant, int n)
    {
        long t0 = Stopwatch.GetTimestamp();
        int result = variant == Model.Variant("ValueTask") ? Runner.Wait(CountRecursivelyValueTask(n)) : Runner.Wait(CountRecursivelyAsync(n));
        double ms = Runner.Ms(Stopwatch.GetTimestamp() - t0);
        if (result != n)
            Report.Failed("deep", variant, $"CountRecursivelyAsync({n:N0})", "ms", $"returned {result}");
        else
            Report.Cell("deep", variant, $"CountRecursivelyAsync({n:N0})", "ms", ms, null);
    }
}
