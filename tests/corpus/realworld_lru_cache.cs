// Real-world: an async LRU cache. A SemaphoreSlim guards the LinkedList/Dictionary LRU structure;
// loads use double-checked locking per key (a Lazy-like Task<TValue> shared by concurrent callers
// so each key loads once), failed loads are evicted so the next call retries, eviction calls an
// async OnEvicted callback after releasing the lock, and GetOrAdd is generic over key and value
// (string->int and int->record). Concurrent readers are gated by a TaskCompletionSource completed
// from another thread, so the load counts are deterministic.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

sealed class AsyncLruCache<TKey, TValue>(int capacity, Func<TKey, Task<TValue>> loader) where TKey : notnull
{
    private readonly SemaphoreSlim gate = new(1, 1);
    private readonly Dictionary<TKey, LinkedListNode<(TKey Key, Task<TValue> Value)>> map = new();
    private readonly LinkedList<(TKey Key, Task<TValue> Value)> order = new();
    public Func<TKey, TValue, ValueTask>? OnEvicted;
    public int Loads;

    public async Task<TValue> GetAsync(TKey key)
    {
        Task<TValue>? pending = null;
        (TKey, Task<TValue>)? evicted = null;
        await gate.WaitAsync().ConfigureAwait(false);
        try
        {
            if (map.TryGetValue(key, out var node))
            {
                order.Remove(node);
                order.AddFirst(node);
                pending = node.Value.Value;
            }
        }
        finally { gate.Release(); }

        if (pending is null)
        {
            await gate.WaitAsync().ConfigureAwait(false);
            try
            {
                if (map.TryGetValue(key, out var node))
                    pending = node.Value.Value;
                else
                {
                    Interlocked.Increment(ref Loads);
                    pending = loader(key);
                    map[key] = order.AddFirst((key, pending));
                    if (map.Count > capacity)
                    {
                        var last = order.Last!;
                        order.RemoveLast();
                        map.Remove(last.Value.Key);
                        evicted = last.Value;
                    }
                }
            }
            finally { gate.Release(); }
        }

        if (evicted is (var evictedKey, var evictedTask) && OnEvicted is { } callback && evictedTask.IsCompletedSuccessfully)
            await callback(evictedKey, await evictedTask);

        try
        {
            return await pending;
        }
        catch (Exception)
        {
            await Forget(key, pending);
            throw;
        }
    }

    private async Task<bool> Forget(TKey key, Task<TValue> failed)
    {
        await gate.WaitAsync();
        try
        {
            if (map.TryGetValue(key, out var node) && node.Value.Value == failed)
            {
                order.Remove(node);
                map.Remove(key);
            }
            return true;
        }
        finally { gate.Release(); }
    }

    public string Keys => string.Join(",", order.Select(n => n.Key));
}

sealed record User(int Id, string Name);

static class Program
{
    static bool Suspend;
    static TaskCompletionSource? s_gate;

    static async Task<int> LoadLength(string key)
    {
        if (s_gate is { } gate) await gate.Task;
        if (Suspend) await Task.Delay(1);
        if (key.StartsWith("bad")) throw new InvalidOperationException($"cannot load {key}");
        return key.Length;
    }

    static async Task<User> LoadUser(int id)
    {
        if (Suspend) await Task.Yield();
        return new User(id, $"user{id}");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var evictions = new List<string>();
            var cache = new AsyncLruCache<string, int>(3, LoadLength);
            cache.OnEvicted = async (k, v) =>
            {
                if (Suspend) await Task.Yield();
                evictions.Add($"{k}={v}");
            };

            foreach (var key in new[] { "a", "bb", "ccc", "a", "dddd", "bb", "eeeee", "a" })
                Console.WriteLine($"get {key} = {await cache.GetAsync(key)} [{cache.Keys}]");
            Console.WriteLine($"loads {cache.Loads}, evicted {string.Join(" ", evictions)}");

            for (int round = 1; round <= 2; round++)
            {
                try { Console.WriteLine(await cache.GetAsync("bad1")); }
                catch (InvalidOperationException e) { Console.WriteLine($"round {round}: {e.Message} [{cache.Keys}] loads {cache.Loads}"); }
            }

            cache.OnEvicted = null;
            s_gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            var readers = Enumerable.Range(0, 8).Select(i => Task.Run(() => cache.GetAsync(i % 2 == 0 ? "shared" : "other"))).ToArray();
            while (cache.Loads < 11) await Task.Delay(1);
            await Task.Run(() => s_gate.SetResult());
            var values = await Task.WhenAll(readers);
            s_gate = null;
            Console.WriteLine($"concurrent: [{string.Join(",", values)}] loads {cache.Loads}");

            var users = new AsyncLruCache<int, User>(2, LoadUser);
            var seen = new List<User>();
            foreach (var id in new[] { 1, 2, 1, 3, 2 }) seen.Add(await users.GetAsync(id));
            Console.WriteLine($"users {string.Join(" ", seen.Select(u => u.Name))} same={ReferenceEquals(seen[0], seen[2])} loads {users.Loads} [{users.Keys}]");
        }
    }
}
