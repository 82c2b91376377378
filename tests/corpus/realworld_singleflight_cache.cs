// A read-through cache with single-flight deduplication (ConcurrentDictionary<string,
// Lazy<Task<T>>>, failed loads removed with the KeyValuePair overload of TryRemove so a retry
// reloads), a SemaphoreSlim throttle around the backing store, loads gated by
// TaskCompletionSources released in a fixed order, Task.WhenAll / WhenAny / Task.WhenEach over
// them, Parallel.ForEachAsync with MaxDegreeOfParallelism = 1, and IAsyncEnumerable pipelines:
// an iterator with [EnumeratorCancellation] and an awaiting finally, a filtering/mapping stage,
// consumed with WithCancellation(...).ConfigureAwait(false), broken out of early, and cancelled.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed record Profile(string Id, string Name, int Score);

sealed class Backend
{
    public static bool Suspend;
    private readonly SemaphoreSlim throttle = new(2, 2);
    private readonly ConcurrentDictionary<string, TaskCompletionSource> gates = new();
    public int Loads, MaxInFlight, inFlight;
    public readonly ConcurrentQueue<string> Trace = new();

    public TaskCompletionSource Gate(string id) => gates.GetOrAdd(id, _ => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));
    public bool Gated;

    public async Task<Profile> Load(string id, CancellationToken token)
    {
        await throttle.WaitAsync(token).ConfigureAwait(false);
        int now = Interlocked.Increment(ref inFlight);
        try
        {
            lock (Trace) MaxInFlight = Math.Max(MaxInFlight, now);
            Interlocked.Increment(ref Loads);
            if (Gated) await Gate(id).Task.WaitAsync(token).ConfigureAwait(false);
            else if (Suspend) await Task.Yield();
            if (id.StartsWith("bad")) throw new KeyNotFoundException($"no profile {id}");
            return new Profile(id, id.ToUpperInvariant(), id.Sum(c => c) % 97);
        }
        finally
        {
            Interlocked.Decrement(ref inFlight);
            throttle.Release();
        }
    }
}

sealed class SingleFlightCache<T>(Func<string, CancellationToken, Task<T>> loader)
{
    private readonly ConcurrentDictionary<string, Lazy<Task<T>>> entries = new();
    public int Hits, Misses, Evictions;

    public async Task<T> GetAsync(string key, CancellationToken token = default)
    {
        var fresh = new Lazy<Task<T>>(() => loader(key, CancellationToken.None));
        var lazy = entries.GetOrAdd(key, fresh);
        if (ReferenceEquals(lazy, fresh)) Interlocked.Increment(ref Misses);
        else Interlocked.Increment(ref Hits);
        try
        {
            return await lazy.Value.WaitAsync(token);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            if (entries.TryRemove(new KeyValuePair<string, Lazy<Task<T>>>(key, lazy)))
                Interlocked.Increment(ref Evictions);
            throw;
        }
    }

    public int Count => entries.Count;
}

static class Feeds
{
    public static bool Suspend;

    public static async IAsyncEnumerable<string> Ids(int count, List<string> log, [EnumeratorCancellation] CancellationToken token = default)
    {
        log.Add("ids start");
        try
        {
            for (int i = 0; i < count; i++)
            {
                token.ThrowIfCancellationRequested();
                if (Suspend && i % 2 == 1) await Task.Yield();
                yield return i % 5 == 4 ? $"bad{i}" : $"user{i % 6}";
            }
        }
        finally
        {
            if (Suspend) await Task.Yield();
            log.Add($"ids finally (cancelled={token.IsCancellationRequested})");
        }
    }

    public static async IAsyncEnumerable<(string Id, Profile? Profile, string? Error)> Resolve(
        IAsyncEnumerable<string> ids, SingleFlightCache<Profile> cache, [EnumeratorCancellation] CancellationToken token = default)
    {
        await foreach (var id in ids.WithCancellation(token).ConfigureAwait(false))
        {
            Profile? profile = null;
            string? error = null;
            try { profile = await cache.GetAsync(id, token).ConfigureAwait(false); }
            catch (KeyNotFoundException e) { error = e.Message; }
            yield return (id, profile, error);
        }
    }
}

static class Program
{
    static async Task Scenario_SingleFlight(bool suspend)
    {
        var backend = new Backend { Gated = true };
        var cache = new SingleFlightCache<Profile>(backend.Load);
        var callers = Enumerable.Range(0, 6).Select(i => cache.GetAsync(i % 2 == 0 ? "alice" : "bob")).ToList();
        var bad = cache.GetAsync("bad-one");
        Console.WriteLine($"pending: {callers.Count(t => !t.IsCompleted)} misses={cache.Misses} hits={cache.Hits}");
        var firstDone = Task.WhenAny(callers);
        backend.Gate("bob").SetResult();
        var winner = await await firstDone;
        Console.WriteLine($"first: {winner.Name}");
        backend.Gate("bad-one").SetResult();
        backend.Gate("alice").SetResult();
        var all = await Task.WhenAll(callers);
        Console.WriteLine("all: " + string.Join(",", all.Select(p => p.Name)));
        try { await bad; }
        catch (KeyNotFoundException e) { Console.WriteLine($"bad: {e.Message}, evictions={cache.Evictions}, count={cache.Count}"); }
        backend.Gated = false;
        try { await cache.GetAsync("bad-one"); } catch (KeyNotFoundException) { }
        Console.WriteLine($"loads={backend.Loads} maxInFlight<=2:{backend.MaxInFlight <= 2} misses={cache.Misses} hits={cache.Hits} evictions={cache.Evictions}");
    }

    static async Task Scenario_WhenEach(bool suspend)
    {
        var backend = new Backend { Gated = true };
        var cache = new SingleFlightCache<Profile>(backend.Load);
        string[] ids = ["k1", "k2", "k3", "k4"];
        var tasks = ids.Select(id => cache.GetAsync(id)).ToArray();
        var order = new[] { "k3", "k1", "k4", "k2" };
        int released = 0;
        // The throttle lets two loads in; release in order, each once its load is waiting.
        async Task Releaser()
        {
            foreach (var id in order)
            {
                while (!backend.Gate(id).Task.IsCompleted && backend.Trace.Count < 0) { }
                if (suspend) await Task.Yield();
                backend.Gate(id).SetResult();
                Interlocked.Increment(ref released);
            }
        }
        var releaser = Releaser();
        var seen = new List<string>();
        await foreach (var t in Task.WhenEach(tasks))
        {
            var p = await t;
            seen.Add(p.Id);
        }
        await releaser;
        seen.Sort(StringComparer.Ordinal);
        Console.WriteLine($"wheneach saw {string.Join(",", seen)} released={released}");
    }

    static async Task Scenario_ParallelForEach(bool suspend)
    {
        var backend = new Backend();
        var cache = new SingleFlightCache<Profile>(backend.Load);
        var results = new List<string>();
        var log = new List<string>();
        var options = new ParallelOptions { MaxDegreeOfParallelism = 1 };
        await Parallel.ForEachAsync(Feeds.Ids(12, log), options, async (id, ct) =>
        {
            try
            {
                var p = await cache.GetAsync(id, ct);
                lock (results) results.Add($"{p.Id}:{p.Score}");
            }
            catch (KeyNotFoundException)
            {
                lock (results) results.Add($"{id}:missing");
            }
        });
        Console.WriteLine($"foreach: {string.Join(" ", results)}");
        Console.WriteLine($"  log: {string.Join(" | ", log)}; loads={backend.Loads} hits={cache.Hits} misses={cache.Misses} evictions={cache.Evictions}");

        int sum = 0;
        await Parallel.ForEachAsync(Enumerable.Range(1, 10), options, async (i, ct) =>
        {
            if (suspend && i % 3 == 0) await Task.Yield();
            if (i == 7) return;
            sum += i;
        });
        Console.WriteLine($"sum={sum}");

        try
        {
            await Parallel.ForEachAsync(Enumerable.Range(1, 10), options, async (i, ct) =>
            {
                if (suspend) await Task.Yield();
                if (i == 4) throw new InvalidOperationException($"item {i} failed");
                lock (results) results.Add("p" + i);
            });
        }
        catch (InvalidOperationException e)
        {
            Console.WriteLine($"parallel failed: {e.Message}; processed {results.Count(r => r.StartsWith('p'))}");
        }
    }

    static async Task Scenario_Streams(bool suspend)
    {
        var backend = new Backend();
        var cache = new SingleFlightCache<Profile>(backend.Load);
        var log = new List<string>();
        int n = 0;
        await foreach (var (id, profile, error) in Feeds.Resolve(Feeds.Ids(20, log), cache).ConfigureAwait(false))
        {
            Console.WriteLine($"  {id} -> {profile?.Name ?? "?"} {error}");
            if (++n == 7) break;
        }
        Console.WriteLine($"stream broke: {string.Join(" | ", log)}");

        log.Clear();
        using var cts = new CancellationTokenSource();
        var got = new List<string>();
        try
        {
            await foreach (var item in Feeds.Resolve(Feeds.Ids(20, log), cache).WithCancellation(cts.Token).ConfigureAwait(false))
            {
                got.Add(item.Id);
                if (item.Error is not null) cts.Cancel();
            }
        }
        catch (OperationCanceledException e)
        {
            Console.WriteLine($"cancelled after {string.Join(",", got)}: {e.GetType().Name} token matches={e.CancellationToken == cts.Token}");
        }
        Console.WriteLine($"log: {string.Join(" | ", log)}; hits={cache.Hits} misses={cache.Misses}");

        var e2 = Feeds.Ids(3, log).GetAsyncEnumerator();
        try
        {
            while (await e2.MoveNextAsync()) Console.WriteLine($"  manual {e2.Current}");
        }
        finally { await e2.DisposeAsync(); }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Backend.Suspend = Feeds.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            await Scenario_SingleFlight(suspend);
            await Scenario_WhenEach(suspend);
            await Scenario_ParallelForEach(suspend);
            await Scenario_Streams(suspend);
            var loop = new SingleThreadLoop("cache");
            loop.RunUntilComplete(async () =>
            {
                await Scenario_SingleFlight(suspend);
                await Scenario_Streams(suspend);
                Console.WriteLine($"on loop: {loop.IsCurrent}");
            });
            loop.Stop();
        }
    }
}
