// Real-world: timeouts and fan-out as service code writes them, kept deterministic: Task.WhenAny
// between work and Task.Delay where one side can never win (a never-completed TaskCompletionSource
// or an hour-long delay canceled afterwards), CancellationTokenSource.CancelAfter with a linked
// token observed by the operation, Task.WaitAsync(timeout), a hedged request that takes the first
// successful replica (the others are gated until the winner is known), Task.WhenAll over a
// throttled fan-out (SemaphoreSlim) collecting results in input order, and cleanup of losers.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

static class Service
{
    public static bool Suspend;
    public static int Peak, Active;

    public static async Task<string> Fetch(string key, TimeSpan? hang, CancellationToken token)
    {
        if (hang is { } h) await Task.Delay(h, token);
        else if (Suspend) await Task.Delay(1, token);
        return key.ToUpperInvariant();
    }

    public static async Task<T> WithTimeout<T>(Func<CancellationToken, Task<T>> operation, TimeSpan timeout, CancellationToken outer = default)
    {
        using var cts = CancellationTokenSource.CreateLinkedTokenSource(outer);
        cts.CancelAfter(timeout);
        try
        {
            return await operation(cts.Token);
        }
        catch (OperationCanceledException) when (!outer.IsCancellationRequested)
        {
            throw new TimeoutException($"timed out after {timeout.TotalMilliseconds}ms");
        }
    }

    public static async Task<(string Winner, string Value)> Hedged(string[] replicas, int good)
    {
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var cts = new CancellationTokenSource();
        var attempts = replicas.Select(async (name, i) =>
        {
            if (i != good)
            {
                await gate.Task.WaitAsync(cts.Token);
                throw new InvalidOperationException(name + " too late");
            }
            if (Suspend) await Task.Yield();
            return (name, await Fetch(name, null, cts.Token));
        }).ToList();
        var first = await Task.WhenAny(attempts);
        cts.Cancel();
        var result = await first;
        int canceled = 0;
        foreach (var loser in attempts.Where(a => a != first))
        {
            try { await loser; }
            catch (OperationCanceledException) { canceled++; }
        }
        return (result.name, $"{result.Item2} (+{canceled} canceled)");
    }

    public static async Task<int> Throttled(int item, SemaphoreSlim limit)
    {
        await limit.WaitAsync();
        try
        {
            int now = Interlocked.Increment(ref Active);
            int peak;
            while (now > (peak = Volatile.Read(ref Peak)) && Interlocked.CompareExchange(ref Peak, now, peak) != peak) { }
            await Task.Delay(Suspend ? 1 : 0);
            return checked(item * item);
        }
        finally
        {
            Interlocked.Decrement(ref Active);
            limit.Release();
        }
    }
}

static class Program
{
    static async Task<string> Try<T>(Func<Task<T>> action)
    {
        try { return $"ok {await action()}"; }
        catch (Exception e) { return $"{e.GetType().Name}: {e.Message}"; }
    }

    static async Task Main()
    {
        var hour = TimeSpan.FromHours(1);
        foreach (var suspend in new[] { false, true })
        {
            Service.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");

            var never = new TaskCompletionSource<string>();
            var winner = await Task.WhenAny(never.Task, Task.Delay(suspend ? 5 : 0).ContinueWith(_ => "timeout"));
            Console.WriteLine($"never vs delay: {(winner == never.Task ? "work" : await winner)}");

            using (var cts = new CancellationTokenSource())
            {
                var work = Service.Fetch("fast", null, default);
                var delay = Task.Delay(hour, cts.Token);
                var done = await Task.WhenAny(work, delay);
                cts.Cancel();
                Console.WriteLine($"fast vs hour: {(done == work ? await work : "timeout")}, delay {await Try(async () => { await delay; return 0; })}");
            }

            Console.WriteLine("timeout: " + await Try(() => Service.WithTimeout(t => Service.Fetch("slow", hour, t), TimeSpan.FromMilliseconds(suspend ? 5 : 1))));
            Console.WriteLine("in time: " + await Try(() => Service.WithTimeout(t => Service.Fetch("quick", null, t), hour)));
            using (var outer = new CancellationTokenSource())
            {
                outer.Cancel();
                Console.WriteLine("outer canceled: " + await Try(() => Service.WithTimeout(t => Service.Fetch("x", hour, t), hour, outer.Token)));
            }
            Console.WriteLine("WaitAsync: " + await Try(() => never.Task.WaitAsync(TimeSpan.FromMilliseconds(2))));
            Console.WriteLine("WaitAsync done: " + await Try(() => Service.Fetch("w", null, default).WaitAsync(hour)));

            var (name, value) = await Service.Hedged(["r1", "r2", "r3", "r4"], good: 2);
            Console.WriteLine($"hedged: {name} -> {value}");

            Service.Peak = 0;
            var limit = new SemaphoreSlim(3);
            var squares = await Task.WhenAll(Enumerable.Range(1, 12).Select(i => Service.Throttled(i, limit)));
            Console.WriteLine($"throttled: [{string.Join(",", squares)}] peak<=3 {Service.Peak <= 3} active {Service.Active}");
            Console.WriteLine("overflow: " + await Try(() => Service.Throttled(int.MaxValue, limit)));
        }
    }
}
