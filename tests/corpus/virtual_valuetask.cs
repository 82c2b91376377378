// Virtual and abstract methods returning ValueTask and ValueTask<T>: overrides that complete
// synchronously and overrides that suspend, a classic override ([RuntimeAsyncMethodGeneration(false)])
// between rewritten ones, and callers that await through the base reference, store the ValueTask
// before awaiting it, and convert it with AsTask().
using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

abstract class Cache
{
    protected int Hits;
    public abstract ValueTask<int> Get(int key);

    public virtual async ValueTask Warm(int key)
    {
        await Program.Pause();
        Hits += key;
    }

    public override string ToString() => $"{GetType().Name}(hits={Hits})";
}

class MemoryCache : Cache
{
    public override async ValueTask<int> Get(int key)
    {
        if (key % 2 == 0)
            return key * 10; // completes synchronously even when the program suspends
        await Program.Pause();
        Hits++;
        return key * 11;
    }
}

class ClassicCache : MemoryCache
{
    [RuntimeAsyncMethodGeneration(false)]
    public override async ValueTask<int> Get(int key)
    {
        await Program.Pause();
        return await base.Get(key) + 1;
    }

    [RuntimeAsyncMethodGeneration(false)]
    public override async ValueTask Warm(int key)
    {
        await base.Warm(key * 2);
        Hits += 1000;
    }
}

sealed class LayeredCache : ClassicCache
{
    public override async ValueTask<int> Get(int key)
    {
        var below = await base.Get(key);
        await Program.Pause();
        return -below;
    }

    public override async ValueTask Warm(int key)
    {
        await Program.Pause();
        await base.Warm(key);
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async ValueTask<int> SumThroughBase(Cache cache, int n)
    {
        int sum = 0;
        for (int k = 1; k <= n; k++)
        {
            ValueTask<int> pending = cache.Get(k);
            sum += await pending;
        }
        return sum;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (Cache cache in new Cache[] { new MemoryCache(), new ClassicCache(), new LayeredCache() })
            {
                int sum = await SumThroughBase(cache, 4);
                await cache.Warm(3);
                Task<int> asTask = cache.Get(5).AsTask();
                Console.WriteLine($"{cache}: sum={sum} get5={await asTask}");
            }
        }
    }
}
