// Async lambdas and async local functions inside generic methods and generic classes: closures
// are generic display classes (<>c__DisplayClass<T>) whose async methods capture T values,
// non-capturing lambdas land in the generic <>c<T>, and static local functions are generic methods.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

struct Cell
{
    public int V;
    public override string ToString() => $"Cell{V}";
}

static class Program
{
    static bool Suspend;

    static async Task<T> Echo<T>(T value)
    {
        if (Suspend) await Task.Yield();
        return value;
    }

    static async Task<T> Retry<T>(Func<Task<T>> attempt, int times)
    {
        for (int i = 1; ; i++)
        {
            try
            {
                return await attempt();
            }
            catch (InvalidOperationException e) when (i < times)
            {
                Console.WriteLine($"  attempt {i} failed: {e.Message}");
                await Echo(i);
            }
        }
    }

    static async Task<string> RetryCapturing<T>(T value, int failures)
    {
        int calls = 0;
        // A capturing async lambda inside a generic method: a method of <>c__DisplayClass<T>.
        var result = await Retry(async () =>
        {
            calls++;
            var v = await Echo(value);
            if (calls <= failures)
                throw new InvalidOperationException($"{typeof(T).Name} call {calls}");
            return v;
        }, 5);
        return $"{result} after {calls} call(s)";
    }

    static async Task<List<TOut>> MapAll<TIn, TOut>(IEnumerable<TIn> items, Func<TIn, Task<TOut>> map)
    {
        var list = new List<TOut>();
        foreach (var item in items)
            list.Add(await map(item));
        return list;
    }

    static async Task<string> WithLocalFunctions<T>(T seed, int n)
    {
        var history = new List<T>();

        // Capturing async local function: its closure is a class, generic in T.
        async Task<T> Remember(T value)
        {
            var v = await Echo(value);
            history.Add(v);
            return v;
        }

        // Static async local function: a generic method of Program.
        static async Task<string> Show(T value, int times)
        {
            var s = "";
            for (int i = 0; i < times; i++)
                s += await Echo(value) + ";";
            return s;
        }

        // Local function with its own type parameter, inside a generic method.
        async Task<(T, U)> With<U>(U other) => (await Remember(seed), await Echo(other));

        for (int i = 0; i < n; i++)
            await Remember(seed);
        var pair = await With("u");
        return $"{history.Count} remembered, show={await Show(seed, 2)} pair={pair}";
    }

    static async Task<int> SumSelected<T>(IEnumerable<T> items, Func<T, int> measure)
    {
        // A non-capturing lambda (cached in the generic <>c<T>) and a capturing one.
        var measured = await MapAll(items, async item => measure(await Echo(item)));
        var offsets = await MapAll(measured, async m => await Echo(m) + 1);
        return offsets.Sum();
    }

    sealed class Cache<TKey, TValue> where TKey : notnull
    {
        private readonly Dictionary<TKey, TValue> _values = new();
        public int Misses;

        public async Task<TValue> GetOrAdd(TKey key, Func<TKey, Task<TValue>> factory)
        {
            if (_values.TryGetValue(key, out var cached))
                return await Echo(cached);
            Misses++;
            var created = await factory(key);
            _values[key] = created;
            return created;
        }

        public Task<TValue> GetOrAddFormatted(TKey key, string format) =>
            GetOrAdd(key, async k =>
            {
                // Capturing lambda in a generic class: closure is <>c__DisplayClass<TKey, TValue>.
                await Echo(format);
                return (TValue)(object)string.Format(format, k, Misses);
            });
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine($"RetryCapturing<int> = {await RetryCapturing(7, 2)}");
            Console.WriteLine($"RetryCapturing<string> = {await RetryCapturing("s", 1)}");
            Console.WriteLine($"RetryCapturing<Cell> = {await RetryCapturing(new Cell { V = 3 }, 0)}");
            Console.WriteLine($"WithLocalFunctions<int> = {await WithLocalFunctions(4, 3)}");
            Console.WriteLine($"WithLocalFunctions<string> = {await WithLocalFunctions("w", 1)}");
            Console.WriteLine($"WithLocalFunctions<Cell> = {await WithLocalFunctions(new Cell { V = 8 }, 2)}");
            Console.WriteLine($"SumSelected<string> = {await SumSelected(new[] { "a", "bb", "ccc" }, s => s.Length)}");
            Console.WriteLine($"SumSelected<Cell> = {await SumSelected(new[] { new Cell { V = 10 }, new Cell { V = 20 } }, c => c.V)}");
            var cache = new Cache<int, string>();
            Console.WriteLine($"Cache<int,string> = {await cache.GetOrAddFormatted(1, "k{0}m{1}")} {await cache.GetOrAddFormatted(1, "other")} {await cache.GetOrAddFormatted(2, "k{0}m{1}")} misses={cache.Misses}");
            var objects = new Cache<string, object>();
            Console.WriteLine($"Cache<string,object> = {await objects.GetOrAdd("a", async k => await Echo<object>(k.Length))} {await objects.GetOrAdd("a", k => Task.FromResult<object>(-1))}");
        }
    }
}
