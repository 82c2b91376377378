using System.Diagnostics;

namespace Async2.Bench;

/// <summary>
/// Exceptions at depth (seed 002): recurse to a depth, optionally through try/finally frames, at
/// the bottom optionally await Task.Yield() (Suspend), then return or throw a new exception; the
/// top-level loop catches. Counts iterations in a fixed window (reported per 250 ms).
/// The Task-returning workload follows the build's model; Exceptions.ValueTask.cs is its
/// ValueTask twin, measured in the classic build.
/// </summary>
internal static partial class Exceptions
{
    private static long s_finallyRuns;

    /// <summary><paramref name="depth"/> async frames; the outermost <paramref name="finallys"/> of them run a try/finally.</summary>
    private static async Task<long> Descend(int depth, int finallys, bool suspend, bool fail)
    {
        if (depth <= 1)
        {
            if (suspend)
                await Task.Yield();
            if (fail)
                throw new Exception("bottom");
            return 1;
        }
        if (finallys > 0)
        {
            try
            {
                return await Descend(depth - 1, finallys - 1, suspend, fail) + 1;
            }
            finally
            {
                s_finallyRuns++;
            }
        }
        return await Descend(depth - 1, 0, suspend, fail) + 1;
    }

    private static async Task<long> Loop(int depth, int finallys, bool suspend, bool fail, long deadline)
    {
        long n = 0;
        do
        {
            try
            {
                await Descend(depth, finallys, suspend, fail);
            }
            catch (Exception)
            {
            }
            n++;
        } while (Stopwatch.GetTimestamp() < deadline);
        return n;
    }

    private static readonly int[] s_depths = [1, 2, 4, 8, 16, 32, 64];
    private static readonly int[] s_quickDepths = [1, 8, 64];
    private static readonly int[] s_finallyCounts = [1, 2, 4, 8, 16, 32];
    private static readonly int[] s_quickFinallyCounts = [1, 8, 32];
    public const int FinallyTableDepth = 32;

    public static void Run(Options options)
    {
        var depths = options.Quick ? s_quickDepths : s_depths;
        foreach (var fail in new[] { false, true })
            foreach (var suspend in new[] { false, true })
                foreach (var depth in depths)
                {
                    var name = $"{(fail ? "Throw" : "Return")} {(suspend ? "Suspend" : "NoSuspend")} d{depth}";
                    Window(options, "eh", Model.Name, name, deadline => Loop(depth, 0, suspend, fail, deadline));
                    if (Model.MeasuresValueTask)
                        Window(options, "eh", "ValueTask", name, deadline => LoopValueTask(depth, 0, suspend, fail, deadline));
                }
    }

    /// <summary>
    /// Throw Suspend again with Async2.CompleteStackTraces=false (set by the caller): the frames
    /// without a handler are skipped instead of rethrown through, and left out of the trace.
    /// </summary>
    public static void RunShortTraces(Options options)
    {
        foreach (var depth in options.Quick ? s_quickDepths : s_depths)
            Window(options, "eh", Model.Name + ShortTracesSuffix, $"Throw Suspend d{depth}", deadline => Loop(depth, 0, suspend: true, fail: true, deadline));
    }

    public const string ShortTracesSuffix = "ShortTraces";

    public static void RunFinally(Options options)
    {
        foreach (var suspend in new[] { false, true })
            foreach (var finallys in options.Quick ? s_quickFinallyCounts : s_finallyCounts)
                Window(options, "ehfinally", Model.Name, $"Throw {(suspend ? "Suspend" : "NoSuspend")} f{finallys}",
                    deadline => Loop(FinallyTableDepth, finallys, suspend, fail: true, deadline));
    }

    /// <summary>Iterations per 250 ms (the window is shorter in --quick and scaled), bytes per iteration.</summary>
    private static void Window(Options options, string benchmark, string variant, string name, Func<long, Task<long>> loop)
    {
        double ms = options.Quick ? 100 : 250;
        Runner.Measure(options, benchmark, variant, name, "iter/250ms", () =>
        {
            long bytes = GC.GetTotalAllocatedBytes(precise: true);
            long start = Stopwatch.GetTimestamp();
            long n = Runner.Wait(loop(Runner.Deadline(ms)));
            double elapsed = Runner.Ms(Stopwatch.GetTimestamp() - start);
            bytes = GC.GetTotalAllocatedBytes(precise: true) - bytes;
            return new Sample(n * 250.0 / elapsed, (double)bytes / n);
        });
    }
}
