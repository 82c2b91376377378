// Generic async methods whose results are compound generic types: Task<(T, U)>, Task<T?> for
// nullable value types, Task<KeyValuePair<K, V>>, Task<List<T>>, Task<T[]>, Task<Dictionary<K, List<V>>>,
// ValueTask<Nullable<T>> and Task<Func<T>>, with results computed after suspending and consumed by
// other generic async methods.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<(T First, U Second)> Zip<T, U>(T t, U u)
    {
        await Pause();
        return (t, u);
    }

    static async ValueTask<T?> Parse<T>(string s, Func<string, T> parse) where T : struct
    {
        await Pause();
        return s.Length == 0 ? null : parse(s);
    }

    static async Task<Dictionary<TKey, List<TValue>>> Group<TKey, TValue>(IEnumerable<TValue> values, Func<TValue, TKey> key) where TKey : notnull
    {
        var groups = new Dictionary<TKey, List<TValue>>();
        foreach (var v in values)
        {
            await Pause();
            var k = key(v);
            if (!groups.TryGetValue(k, out var list))
                groups[k] = list = new List<TValue>();
            list.Add(v);
        }
        return groups;
    }

    static async Task<KeyValuePair<TKey, int>[]> Counts<TKey, TValue>(IEnumerable<TValue> values, Func<TValue, TKey> key) where TKey : notnull
    {
        var groups = await Group(values, key);
        return groups.Select(g => new KeyValuePair<TKey, int>(g.Key, g.Value.Count)).ToArray();
    }

    static async Task<Func<T>> Memo<T>(Func<Task<T>> compute)
    {
        T value = await compute();
        return () => value;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var z1 = await Zip(1, "one");
            var z2 = await Zip(z1, 2.5m);
            Console.WriteLine($"{z1} {z2.First.Second} {z2.Second}");
            Console.WriteLine($"{await Parse("12", int.Parse)} {(await Parse("", int.Parse)).HasValue} {await Parse("2.5", double.Parse)}");
            var groups = await Group(new[] { "apple", "avocado", "banana", "blueberry", "cherry" }, w => w[0]);
            Console.WriteLine(string.Join(" ", groups.Select(g => $"{g.Key}:{string.Join("/", g.Value)}")));
            Console.WriteLine(string.Join(" ", await Counts(Enumerable.Range(1, 10), i => i % 3)));
            var memo = await Memo(async () => { await Pause(); return new List<int> { 4, 5 }; });
            Console.WriteLine($"{memo().Count} {ReferenceEquals(memo(), memo())}");
        }
    }
}
