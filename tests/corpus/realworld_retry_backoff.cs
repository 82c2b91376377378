// Real-world: a retry policy with exponential backoff (tiny Task.Delay waits) and a circuit
// breaker. Exception filters classify failures (one logging filter with a side effect that always
// returns false), a generic ExecuteAsync<T> over Func<int, CancellationToken, Task<T>> returns
// int, string and tuple results, an awaited onRetry callback inside the catch cancels the token so
// the backoff Task.Delay throws TaskCanceledException, and the breaker's state (fake clock) is
// updated in catch/finally around awaits.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class TransientException(string message, int code) : Exception(message)
{
    public int Code { get; } = code;
}

sealed class PermanentException(string message) : Exception(message);

sealed class BrokenCircuitException(string message) : Exception(message);

enum CircuitState { Closed, Open, HalfOpen }

sealed class CircuitBreaker(int threshold, int openFor)
{
    private int failures;
    private int openedAt;
    public int Now;
    public CircuitState State { get; private set; } = CircuitState.Closed;

    public async Task<T> CallAsync<T>(Func<Task<T>> action)
    {
        if (State == CircuitState.Open)
        {
            if (Now - openedAt < openFor) throw new BrokenCircuitException($"open since t={openedAt}");
            State = CircuitState.HalfOpen;
        }
        try
        {
            var value = await action();
            failures = 0;
            State = CircuitState.Closed;
            return value;
        }
        catch (Exception) when (++failures >= threshold || State == CircuitState.HalfOpen)
        {
            State = CircuitState.Open;
            openedAt = Now;
            await Program.Pause();
            throw;
        }
    }
}

sealed class RetryPolicy(int maxAttempts, TimeSpan baseDelay, List<string> log)
{
    public Func<int, Task>? OnRetry;

    private static bool Note(List<string> log, string line) { log.Add(line); return false; }

    public async Task<T> ExecuteAsync<T>(Func<int, CancellationToken, Task<T>> operation, CancellationToken token = default)
    {
        var delay = baseDelay;
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                T result = await operation(attempt, token).ConfigureAwait(false);
                log.Add($"  attempt {attempt}: ok {result}");
                return result;
            }
            catch (Exception e) when (Note(log, $"  attempt {attempt}: {e.GetType().Name} {e.Message}"))
            {
                throw new InvalidOperationException("unreachable");
            }
            catch (TransientException e) when (e.Code >= 500 && attempt < maxAttempts)
            {
                if (OnRetry is { } onRetry) await onRetry(attempt);
                log.Add($"  backoff x{delay.Ticks / Math.Max(1, baseDelay.Ticks)}");
                await Task.Delay(delay, token);
                delay *= 2;
            }
        }
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<int> Flaky(int attempt, int failUntil, int code)
    {
        await Pause();
        if (attempt < failUntil) throw new TransientException($"busy#{attempt}", code);
        return attempt * 100;
    }

    static async Task Run(string name, Func<List<string>, Task<string>> scenario)
    {
        var log = new List<string>();
        string outcome;
        try { outcome = await scenario(log); }
        catch (Exception e) { outcome = $"threw {e.GetType().Name}: {e.Message}"; }
        Console.WriteLine($"{name}: {outcome}");
        foreach (var line in log) Console.WriteLine(line);
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            var unit = suspend ? TimeSpan.FromMilliseconds(1) : TimeSpan.Zero;
            Console.WriteLine($"-- suspend={suspend}");

            await Run("succeeds on third", async log =>
                (await new RetryPolicy(5, unit, log).ExecuteAsync((a, _) => Flaky(a, 3, 503))).ToString());

            await Run("gives up", async log =>
                (await new RetryPolicy(3, unit, log).ExecuteAsync((a, _) => Flaky(a, 10, 500))).ToString());

            await Run("client error not retried", async log =>
                (await new RetryPolicy(3, unit, log).ExecuteAsync((a, _) => Flaky(a, 10, 404))).ToString());

            await Run("permanent", async log => await new RetryPolicy(3, unit, log).ExecuteAsync<string>(async (a, _) =>
            {
                await Pause();
                throw new PermanentException("bad input");
            }));

            await Run("tuple result", async log =>
            {
                var (code, text) = await new RetryPolicy(4, unit, log).ExecuteAsync(async (a, _) =>
                {
                    int v = await Flaky(a, 2, 502);
                    return (v + 1, $"a{a}");
                });
                return $"{code}/{text}";
            });

            await Run("canceled during backoff", async log =>
            {
                using var cts = new CancellationTokenSource();
                var policy = new RetryPolicy(5, unit, log);
                policy.OnRetry = async attempt =>
                {
                    await Pause();
                    if (attempt == 2) cts.Cancel();
                };
                return (await policy.ExecuteAsync((a, t) => Flaky(a, 10, 503), cts.Token)).ToString();
            });

            var breaker = new CircuitBreaker(threshold: 2, openFor: 5);
            var calls = new List<string>();
            for (int t = 0; t < 10; t++)
            {
                breaker.Now = t;
                bool fail = t is < 3 or 7;
                try
                {
                    int v = await breaker.CallAsync(async () =>
                    {
                        await Pause();
                        if (fail) throw new TransientException("down", 503);
                        return t;
                    });
                    calls.Add($"t{t}:ok{v}");
                }
                catch (BrokenCircuitException) { calls.Add($"t{t}:broken"); }
                catch (TransientException) { calls.Add($"t{t}:fail({breaker.State})"); }
            }
            Console.WriteLine("breaker " + string.Join(" ", calls));
        }
    }
}
