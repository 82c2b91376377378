// Races and load (issue 14), built classic and runtime-async and run both ways: stdout holds only
// what must be identical (counts, sums, "yes"/"no" checks); stderr holds the measurements (time,
// memory per suspended chain), which tests/stress.sh prints side by side.
// STRESS_SCALE multiplies the sizes (1 in CI; tests/stress.sh uses 10 for 1,000,000 chains).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static readonly int Scale = int.TryParse(Environment.GetEnvironmentVariable("STRESS_SCALE"), out var scale) ? scale : 1;
    static int s_unobserved;
    static long s_suspendedBytes;

    static async Task<int> Main()
    {
        TaskScheduler.UnobservedTaskException += (_, e) => { Interlocked.Increment(ref s_unobserved); e.SetObserved(); };
        long baseline = Settle();

        await Run("suspended chains completed from many threads", () => ManyChains(100_000 * Scale, baseline));
        await Run("completion racing the suspension", () => RacingCompletions(20_000 * Scale));
        await Run("cancellation storm", () => CancellationStorm(20_000 * Scale));
        await Run("deep chains resumed concurrently", () => DeepChains(chains: 8 * Scale, depth: 1_000));
        await Run("exceptions after suspension", () => Faults(20_000 * Scale));

        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        long after = Settle();
        Console.WriteLine($"unobserved task exceptions: {s_unobserved}");
        // Every continuation is garbage once its chain completed: the heap is back near where it
        // began. What the runtime keeps for itself (thread pool, timers) grows a little with the
        // load, in classic async as much: a leak would keep a good part of the chains' memory.
        long allowed = Math.Max(8L * 1024 * 1024, s_suspendedBytes / 20);
        Console.WriteLine($"heap back to its baseline: {(after - baseline < allowed ? "yes" : $"no ({(after - baseline) / 1024} KB more)")}");
        return 0;
    }

    static async Task Run(string name, Func<Task<string>> scenario)
    {
        var watch = Stopwatch.StartNew();
        var result = await scenario();
        Console.WriteLine($"{name}: {result}");
        Console.Error.WriteLine($"time {name}: {watch.Elapsed.TotalMilliseconds:F0} ms");
    }

    static long Settle()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        return GC.GetTotalMemory(forceFullCollection: true);
    }

    // ---- 1. many chains suspended at once, completed from several threads at once ----

    static async Task<string> ManyChains(int count, long baseline)
    {
        var sources = new TaskCompletionSource<int>[count];
        var chains = new Task<long>[count];
        for (int i = 0; i < count; i++)
        {
            sources[i] = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
            chains[i] = Outer(sources[i].Task, i);
        }
        long suspended = GC.GetTotalMemory(forceFullCollection: true);
        s_suspendedBytes = suspended - baseline;
        Console.Error.WriteLine($"memory per suspended chain: {(suspended - baseline) / (double)count:F0} bytes (3 frames and a TaskCompletionSource)");

        int completedTwice = 0;
        var completers = Enumerable.Range(0, Environment.ProcessorCount * 2).Select(worker => Task.Run(() =>
        {
            for (int i = worker; i < count; i += Environment.ProcessorCount * 2)
                if (!sources[i].TrySetResult(i))
                    Interlocked.Increment(ref completedTwice);
        })).ToArray();
        await Task.WhenAll(completers);
        var results = await Task.WhenAll(chains);
        long expected = Enumerable.Range(0, count).Sum(i => (long)i * 3 + 2);
        return $"{count} chains, sum {(results.Sum() == expected ? "right" : "WRONG")}, completed twice {completedTwice}";
    }

    static async Task<long> Outer(Task<int> gate, int i) => await Middle(gate, i) + 1;

    static async Task<long> Middle(Task<int> gate, int i) => await Inner(gate) + i + 1;

    static async Task<long> Inner(Task<int> gate) => await gate * 2L;

    // ---- 2. the awaited task completes on another thread while the chain is still unwinding ----

    static async Task<string> RacingCompletions(int count)
    {
        int observed = 0;
        long sum = 0;
        for (int i = 0; i < count; i++)
        {
            var source = new TaskCompletionSource<int>();
            var starting = new ManualResetEventSlim();
            var completer = Task.Run(() => { starting.Wait(); source.SetResult(1); });
            var chain = RaceOuter(source.Task, starting);
            sum += await chain;
            Interlocked.Increment(ref observed);
            await completer;
        }
        return $"{observed} of {count} completions observed once, sum {sum}";
    }

    static async Task<int> RaceOuter(Task<int> gate, ManualResetEventSlim starting)
    {
        int value = await RaceInner(gate, starting);
        return value;
    }

    static async Task<int> RaceInner(Task<int> gate, ManualResetEventSlim starting)
    {
        // Let the completer go just before awaiting: it may complete the task before, during or after the suspension.
        starting.Set();
        return await gate;
    }

    // ---- 3. cancellation at random points, from other threads ----

    static async Task<string> CancellationStorm(int count)
    {
        var random = new Random(14);
        var sources = Enumerable.Range(0, count).Select(_ => new CancellationTokenSource()).ToArray();
        var delays = Enumerable.Range(0, count).Select(_ => random.Next(0, 4)).ToArray();
        var chains = Enumerable.Range(0, count).Select(i => Cancellable(sources[i].Token, delays[i])).ToArray();
        await Task.WhenAll(Enumerable.Range(0, 4).Select(worker => Task.Run(() =>
        {
            for (int i = worker; i < count; i += 4)
                if (delays[i] != 3)
                    sources[i].Cancel();
        })));
        int cancelled = 0, completed = 0, other = 0;
        foreach (var chain in chains)
        {
            try
            {
                await chain;
                completed++;
            }
            catch (OperationCanceledException)
            {
                cancelled++;
            }
            catch (Exception)
            {
                other++;
            }
        }
        int expectedCompleted = delays.Count(d => d == 3);
        return $"{cancelled + completed} of {count} ended, completed {(completed == expectedCompleted ? "as expected" : "WRONG")}, other faults {other}";
    }

    static async Task Cancellable(CancellationToken token, int steps)
    {
        // steps 3 never waits on the token: it completes; the others wait until cancelled.
        for (int i = 0; i < steps; i++)
            await Task.Yield();
        if (steps != 3)
            await CancellableInner(token);
    }

    static async Task CancellableInner(CancellationToken token) => await Task.Delay(Timeout.Infinite, token);

    // ---- 4. deep chains, all resumed at once ----

    static async Task<string> DeepChains(int chains, int depth)
    {
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var tasks = Enumerable.Range(0, chains).Select(_ => Task.Run(() => Deep(gate.Task, depth))).ToArray();
        await Task.Delay(50);
        gate.SetResult();
        var results = await Task.WhenAll(tasks);
        return $"{chains} chains of depth {depth}, all {(results.All(r => r == depth) ? "right" : "WRONG")}";
    }

    static async Task<int> Deep(Task gate, int depth)
    {
        if (depth == 0)
        {
            await gate;
            return 0;
        }
        return await Deep(gate, depth - 1) + 1;
    }

    // ---- 5. exceptions thrown after a suspension, each caught exactly once ----

    static async Task<string> Faults(int count)
    {
        int caught = 0, missed = 0;
        var chains = Enumerable.Range(0, count).Select(async i =>
        {
            try
            {
                await Thrower(i);
                Interlocked.Increment(ref missed);
            }
            catch (InvalidOperationException e) when (e.Message == $"fault {i}")
            {
                Interlocked.Increment(ref caught);
            }
        }).ToArray();
        await Task.WhenAll(chains);
        return $"caught {caught} of {count}, missed {missed}";
    }

    static async Task Thrower(int i)
    {
        await Task.Yield();
        await ThrowerInner(i);
    }

    static async Task ThrowerInner(int i)
    {
        await Task.Yield();
        throw new InvalidOperationException($"fault {i}");
    }
}
