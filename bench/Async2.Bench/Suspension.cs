using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading.Tasks.Sources;

namespace Async2.Bench;

/// <summary>
/// Suspension-heavy (seed 004): one async method awaits, many times over, an awaiter that is never
/// complete; the driver resumes it by hand until the task completes. Then the same with a
/// ValueTask over a reusable source, as a channel, a pipe or a socket gives, in a loop and in
/// top-level calls that each await it once with ConfigureAwait(false), as a library's methods do.
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

    /// <summary>A reusable ValueTask source completed by hand, inline (as ManualAwaiter is).</summary>
    private sealed class ManualSource : IValueTaskSource
    {
        private ManualResetValueTaskSourceCore<bool> _core;

        public ValueTask Next()
        {
            _core.Reset();
            return new ValueTask(this, _core.Version);
        }

        public void Step() => _core.SetResult(true);

        public void GetResult(short token) => _core.GetResult(token);

        public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

        public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
            _core.OnCompleted(continuation, state, token, flags);
    }

    private static async Task AwaitManySource(int count, ManualSource source)
    {
        for (int i = 0; i < count; i++)
        {
            await source.Next();
            s_sink += i;
        }
    }

    private static async Task AwaitOnce(ManualSource source)
    {
        await source.Next().ConfigureAwait(false);
        s_sink++;
    }

    public static void Run(Options options, bool valueTaskSource)
    {
        int count = options.Quick ? 2_000_000 : 10_000_000;
        var awaiter = new ManualAwaiter();
        Measure(options, $"{count:N0} awaits", count, Model.Name, n => { var t = AwaitMany(n, awaiter); return () => t.IsCompleted; }, awaiter.Step);
        if (Model.MeasuresValueTask)
            Measure(options, $"{count:N0} awaits", count, "ValueTask", n => { var t = AwaitManyValueTask(n, awaiter); return () => t.IsCompleted; }, awaiter.Step);
        if (!valueTaskSource)
            return;
        var source = new ManualSource();
        Measure(options, $"{count:N0} awaits of a ValueTask source", count, Model.Name, n => { var t = AwaitManySource(n, source); return () => t.IsCompleted; }, source.Step);
        int calls = count / 5;
        Measure(options, $"{calls:N0} calls awaiting a ValueTask source once", calls, Model.Name, n =>
        {
            int started = 0;
            Task current = Task.CompletedTask;
            // Each step completes the pending call's await and starts the next call.
            return () =>
            {
                if (!current.IsCompleted)
                    return false;
                if (started == n)
                    return true;
                started++;
                current = AwaitOnce(source);
                return false;
            };
        }, source.Step);
    }

    /// <summary>Times rounds of <paramref name="count"/> suspensions: <paramref name="start"/> begins one and returns whether it is done; <paramref name="step"/> resumes.</summary>
    private static void Measure(Options options, string @case, int count, string variant, Func<int, Func<bool>> start, Action step)
    {
        Sample Round(int n)
        {
            long bytes = GC.GetAllocatedBytesForCurrentThread();
            long t0 = Stopwatch.GetTimestamp();
            var done = start(n);
            while (!done())
                step();
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
        Report.Cell("suspend", variant, @case, "ms", m, bytesPerOp, rounds);
    }
}
