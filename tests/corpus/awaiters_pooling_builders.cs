// Methods with an explicit builder (PoolingAsyncValueTaskMethodBuilder, which Roslyn's runtime-async
// mode compiles as runtime-async methods, the builder dropped) called from rewritten code and calling it, async
// lambdas run by Task.Run, StartNew(...).Unwrap() and Parallel.ForEachAsync, and the .NET 8
// ConfigureAwaitOptions (SuppressThrowing, ForceYielding) with WaitAsync timeouts and cancellation.
using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool s_suspend;
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    static async ValueTask<int> Pooled(int x) { if (s_suspend) await Task.Yield(); return x + await Plain(x); }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    static async ValueTask PooledVoid() { if (s_suspend) await Task.Yield(); await Plain(1); }

    static async Task<int> Plain(int x) { if (s_suspend) await Task.Delay(1); return x * 2; }

    static async Task<int> Caller(int x)
    {
        int a = await Pooled(x);
        await PooledVoid();
        var t = Task.Run(async () => await Pooled(a));
        return a + await t + await Task.Factory.StartNew(async () => await Plain(3)).Unwrap();
    }

    static async Task<int> WithOptions()
    {
        var slow = Task.Delay(20).ContinueWith(_ => throw new InvalidOperationException("boom"));
        await slow.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
        int r = 0;
        try { await slow.ConfigureAwait(ConfigureAwaitOptions.ContinueOnCapturedContext); } catch (InvalidOperationException e) { r = e.Message.Length; }
        return r + (slow.IsFaulted ? 100 : 0);
    }

    static async Task<string> Parallel()
    {
        int total = 0;
        await System.Threading.Tasks.Parallel.ForEachAsync(new[] { 1, 2, 3, 4 }, new ParallelOptions { MaxDegreeOfParallelism = 2 }, async (i, ct) =>
        {
            int v = await Plain(i);
            Interlocked.Add(ref total, v);
        });
        using var cts = new CancellationTokenSource();
        var waiting = Task.Delay(Timeout.Infinite, cts.Token);
        cts.CancelAfter(5);
        try { await waiting.WaitAsync(TimeSpan.FromSeconds(10)); } catch (TaskCanceledException) { total += 1000; }
        try { await Task.Delay(Timeout.Infinite).WaitAsync(TimeSpan.FromMilliseconds(5)); } catch (TimeoutException) { total += 10000; }
        return total.ToString();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}: {await Caller(5)} {await WithOptions()} {await Parallel()}");
        }
    }
}
