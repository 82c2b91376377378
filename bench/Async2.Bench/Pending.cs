using System.Diagnostics;

namespace Async2.Bench;

/// <summary>
/// Many pending calls (shared/BENCHMARKS.md, section 8): a server's shape, where a keyed lock or a
/// connection pool holds up a great many requests at once. N top-level async calls start and all
/// suspend on one gate; the gate opens and each then queues on a SemaphoreSlim that has no free
/// slot; the driver gives the semaphore <see cref="Slots"/> slots, and each call takes one, makes
/// one more async call and hands its slot on, until all have completed (SemaphoreSlim resumes a
/// waiter through the thread pool). Reported: the time from the first call to the last result
/// (and each phase's), bytes allocated per call (all threads), and the peak heap the pending calls
/// hold: the live managed heap after a full GC at the two points where all N wait at once (on the
/// gate, then on the semaphore), less the heap before the calls, measured in a round of its own so
/// that no timed round has a forced GC in it.
/// </summary>
internal static class Pending
{
    private const int Slots = 64;

    private static int s_global = 1;

    private static async Task<long> Call(int id, Task<int> gate, SemaphoreSlim slots)
    {
        int offset = await gate;
        await slots.WaitAsync();
        try
        {
            return await Work(id, offset);
        }
        finally
        {
            slots.Release();
        }
    }

    /// <summary>What a call does with its slot: an async call that completes without suspending, as a cached lookup would.</summary>
    private static async Task<long> Work(int id, int offset)
    {
        if (s_global == 0)
            await Task.Yield();
        return (long)id + offset;
    }

    private readonly record struct Phases(double StartMs, double GateMs, double DrainMs, long Bytes, double PeakHeapBytes);

    public static void Run(Options options)
    {
        int calls = options.Quick ? 100_000 : 1_000_000;
        string @case = $"{calls:N0} calls: gate, semaphore, drain";
        try
        {
            var tasks = new Task<long>[calls];
            // Warm-up on small populations, with pauses so tiered compilation promotes the methods.
            for (int i = 0; i < 10; i++)
            {
                Round(tasks, 10_000, probeHeap: false);
                Thread.Sleep(50);
            }
            // One untimed round at full size grows the heap to what the timed ones need (the median of a quick run's three absorbs it instead).
            if (!options.Quick)
                Round(tasks, calls, probeHeap: false);
            var rounds = Enumerable.Range(0, options.Rounds).Select(_ => Round(tasks, calls, probeHeap: false)).ToList();
            var probe = Round(tasks, calls, probeHeap: true);
            double Median(Func<Phases, double> f) => Runner.Median(rounds.Select(f).ToArray());
            Report.Cell("pending", Model.Name, @case, "ms", Median(p => p.StartMs + p.GateMs + p.DrainMs), Median(p => (double)p.Bytes / calls),
                rounds.Select(p => p.StartMs + p.GateMs + p.DrainMs).ToList(), extra: new Dictionary<string, double>
                {
                    ["startMs"] = Median(p => p.StartMs),
                    ["gateMs"] = Median(p => p.GateMs),
                    ["drainMs"] = Median(p => p.DrainMs),
                    ["peakHeapMb"] = probe.PeakHeapBytes / 1048576.0,
                    ["peakHeapBytesPerCall"] = probe.PeakHeapBytes / calls,
                });
        }
        catch (Exception e)
        {
            Report.Failed("pending", Model.Name, @case, "ms", $"{e.GetType().Name}: {e.Message}");
        }
    }

    /// <param name="probeHeap">Measure the live heap where all calls wait (full GCs: the times are not used).</param>
    private static Phases Round(Task<long>[] tasks, int calls, bool probeHeap)
    {
        var gate = new TaskCompletionSource<int>();
        var slots = new SemaphoreSlim(0);
        double baseline = probeHeap ? GC.GetTotalMemory(forceFullCollection: true) : 0, peak = 0;
        long bytes = GC.GetTotalAllocatedBytes(precise: true);
        long t0 = Stopwatch.GetTimestamp();
        for (int i = 0; i < calls; i++)
            tasks[i] = Call(i, gate.Task, slots);
        long t1 = Stopwatch.GetTimestamp();
        if (probeHeap)
            peak = GC.GetTotalMemory(forceFullCollection: true) - baseline;
        // The gate's continuations run here, each queuing its call on the semaphore.
        long t2 = Stopwatch.GetTimestamp();
        gate.SetResult(1);
        long t3 = Stopwatch.GetTimestamp();
        if (slots.CurrentCount != 0 || tasks[calls - 1].IsCompleted)
            throw new InvalidOperationException("the calls did not all wait on the semaphore");
        if (probeHeap)
            peak = Math.Max(peak, GC.GetTotalMemory(forceFullCollection: true) - baseline);
        long t4 = Stopwatch.GetTimestamp();
        slots.Release(Slots);
        long sum = 0;
        for (int i = 0; i < calls; i++)
            sum += Runner.Wait(tasks[i]);
        long t5 = Stopwatch.GetTimestamp();
        bytes = GC.GetTotalAllocatedBytes(precise: true) - bytes;
        if (sum != (long)calls * (calls - 1) / 2 + calls)
            throw new InvalidOperationException($"the calls summed to {sum}");
        Array.Clear(tasks, 0, calls);
        return new Phases(Runner.Ms(t1 - t0), Runner.Ms(t3 - t2), Runner.Ms(t5 - t4), bytes, peak);
    }
}
