using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace Async2.Bench;

/// <summary>
/// Suspension-heavy (seed 004): one async method awaits, many times over, an awaiter that is never
/// complete; the driver resumes it by hand until the task completes.
/// </summary>
internal static class Suspension
{
    /// <summary>Never completes on its own: keeps the continuation so the driver can run it.</summary>
    private sealed class ManualAwaiter : ICriticalNotifyCompletion
    {
        public Action? Pending;
        public ManualAwaiter GetAwaiter() => this;
        public bool IsCompleted => false;
        public void GetResult() { }
        public void UnsafeOnCompleted(Action continuation) => Pending = continuation;
        public void OnCompleted(Action continuation) => Pending = continuation;

        /// <summary>Runs the stored continuation once.</summary>
        public void Step()
        {
            var next = Pending!;
            Pending = null;
            next();
        }
    }

    private static long s_sink;

    private static async Task AwaitMany(int count, ManualAwaiter awaiter)
    {
        for (int i = 0; i < count; i++)
        {
            await awaiter;
            s_sink += i;
        }
    }

    private static async ValueTask AwaitManyValueTask(int count, ManualAwaiter awaiter)
    {
        for (int i = 0; i < count; i++)
        {
            await awaiter;
            s_sink += i;
        }
    }

    public static void Run(Options options)
    {
        int count = options.Quick ? 2_000_000 : 10_000_000;
        Measure(options, count, Model.Name, (n, a) => { var t = AwaitMany(n, a); return () => t.IsCompleted; }, out _);
        if (Model.MeasuresValueTask)
            Measure(options, count, "ValueTask", (n, a) => { var t = AwaitManyValueTask(n, a); return () => t.IsCompleted; }, out _);
    }

    private static void Measure(Options options, int count, string variant, Func<int, ManualAwaiter, Func<bool>> start, out double median)
    {
        var awaiter = new ManualAwaiter();
        Sample Round(int n)
        {
            long bytes = GC.GetAllocatedBytesForCurrentThread();
            long t0 = Stopwatch.GetTimestamp();
            var done = start(n, awaiter);
            while (!done())
                awaiter.Step();
            double ms = Runner.Ms(Stopwatch.GetTimestamp() - t0);
            bytes = GC.GetAllocatedBytesForCurrentThread() - bytes;
            return new Sample(ms, (double)bytes / n);
        }
        // Warm-up as in seed 004: many short runs, with a pause for tiered compilation.
        for (int i = 0; i < 10; i++)
        {
            for (int j = 0; j < 500; j++)
                Round(20);
            Thread.Sleep(50);
        }
        var (m, bytesPerOp, rounds) = Runner.Run(options, () => Round(count));
        median = m;
        Report.Cell("suspend", variant, $"{count:N0} awaits", "ms", m, bytesPerOp, rounds);
    }
}
