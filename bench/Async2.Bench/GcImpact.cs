using System.Diagnostics;
using System.Runtime;

namespace Async2.Bench;

/// <summary>
/// GC impact (seed 002): 10,000 chains, each 100 async frames deep with an object and an integer
/// live across the await, all suspended on one gate. While they are suspended, force Gen0 GCs and
/// measure the average pause, the managed heap size and the peak working set. Run in its own
/// process per variant with workstation, non-concurrent GC (set by the driver).
/// </summary>
internal static partial class GcImpact
{
    public const int Chains = 10_000;
    public const int Frames = 100;
    private const int Gen0Collections = 20;

    private sealed class Payload(int value)
    {
        public int Value = value;
    }

    private static async Task<long> Frame(int depth, Task<long> gate)
    {
        var payload = new Payload(depth);
        int local = depth * 3;
        long below = depth <= 1 ? await gate : await Frame(depth - 1, gate);
        return below + payload.Value + local;
    }

    public static void Run(Options options, string variant)
    {
        bool valueTask = variant == Model.Variant("ValueTask");
        Func<int, int, Task<long>, Task<long>> start = valueTask
            ? (chains, frames, gate) => FrameValueTask(frames, gate).AsTask()
            : (chains, frames, gate) => Frame(frames, gate);

        // Warm-up: small populations, with pauses so tiered compilation promotes the frames.
        for (int i = 0; i < (options.Quick ? 3 : 6); i++)
        {
            Population(start, 200, Frames, measure: false);
            Thread.Sleep(150);
        }

        var rounds = options.Quick ? 1 : 3;
        var results = new List<(double PauseUs, double HeapMb, double BytesPerFrame, double PauseTotalUs)>();
        for (int r = 0; r < rounds; r++)
            results.Add(Population(start, Chains, Frames, measure: true));

        double Median(Func<(double PauseUs, double HeapMb, double BytesPerFrame, double PauseTotalUs), double> f) =>
            Runner.Median(results.Select(f).ToArray());
        double peakMb = Process.GetCurrentProcess().PeakWorkingSet64 / 1048576.0;
        var extra = new Dictionary<string, double>
        {
            ["heapMb"] = Median(x => x.HeapMb),
            ["peakWorkingSetMb"] = peakMb,
            ["gcPauseDurationUs"] = Median(x => x.PauseTotalUs),
        };
        Report.Cell("gc", variant, "Gen0 pause", "us", Median(x => x.PauseUs), Median(x => x.BytesPerFrame),
            results.Select(x => x.PauseUs).ToList(),
            GCSettings.IsServerGC || GCSettings.LatencyMode != GCLatencyMode.Batch ? $"gc mode: server={GCSettings.IsServerGC}, latency={GCSettings.LatencyMode}" : null,
            extra);
    }

    private static (double PauseUs, double HeapMb, double BytesPerFrame, double PauseTotalUs) Population(
        Func<int, int, Task<long>, Task<long>> start, int chains, int frames, bool measure)
    {
        var gate = new TaskCompletionSource<long>();
        var tasks = new Task<long>[chains];
        GC.Collect();
        long allocated = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < chains; i++)
            tasks[i] = start(chains, frames, gate.Task);
        allocated = GC.GetAllocatedBytesForCurrentThread() - allocated;
        if (tasks[0].IsCompleted)
            throw new InvalidOperationException("the chains did not suspend");

        double pauseUs = 0, heapMb = 0, pauseTotalUs = 0;
        if (measure)
        {
            // Promote everything once, as a long-lived population would be, then time Gen0 collections.
            GC.Collect();
            GC.Collect();
            var pausedBefore = GC.GetTotalPauseDuration();
            long ticks = 0;
            for (int i = 0; i < Gen0Collections; i++)
            {
                GC.KeepAlive(new byte[1024]);
                long t0 = Stopwatch.GetTimestamp();
                GC.Collect(0, GCCollectionMode.Forced, blocking: true);
                ticks += Stopwatch.GetTimestamp() - t0;
            }
            pauseTotalUs = (GC.GetTotalPauseDuration() - pausedBefore).TotalMicroseconds / Gen0Collections;
            pauseUs = Runner.Ms(ticks) * 1000 / Gen0Collections;
            heapMb = GC.GetGCMemoryInfo(GCKind.Any).HeapSizeBytes / 1048576.0;
        }

        gate.SetResult(1);
        long expected = 1 + (long)frames * (frames + 1) / 2 + 3L * frames * (frames + 1) / 2;
        foreach (var task in tasks)
            if (Runner.Wait(task) != expected)
                throw new InvalidOperationException("wrong result");
        return (pauseUs, heapMb, (double)allocated / ((long)chains * frames), pauseTotalUs);
    }
}
