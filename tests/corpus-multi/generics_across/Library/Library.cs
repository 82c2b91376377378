// Rewritten by Async2: generic async code that later assemblies instantiate over their own types
// (classes and structs the library has never seen), generic structs with async methods, and generic
// methods taking async delegates defined elsewhere.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace Generic;

public static class Pause
{
    public static bool Suspend;

    public static async Task Maybe()
    {
        if (Suspend) await Task.Yield();
    }
}

public class Cache<TKey, TValue> where TKey : notnull
{
    private readonly Dictionary<TKey, TValue> _items = new();
    public int Loads;

    public async Task<TValue> GetOrLoad(TKey key, Func<TKey, Task<TValue>> load)
    {
        if (_items.TryGetValue(key, out var cached))
            return cached;
        await Pause.Maybe();
        var value = await load(key);
        Loads++;
        _items[key] = value;
        return value;
    }

    public virtual async Task<string> Dump()
    {
        await Pause.Maybe();
        var parts = new List<string>();
        foreach (var (k, v) in _items)
            parts.Add($"{k}={v}");
        return string.Join(";", parts);
    }
}

public struct Accumulator<T>
{
    public List<T> Items;

    public async Task<int> AddAll(IEnumerable<T> values)
    {
        Items ??= new List<T>();
        foreach (var v in values)
        {
            await Pause.Maybe();
            Items.Add(v);
        }
        return Items.Count;
    }
}

public static class Algorithms
{
    public static async Task<TResult> Fold<T, TResult>(IEnumerable<T> items, TResult seed, Func<TResult, T, ValueTask<TResult>> step)
    {
        var acc = seed;
        foreach (var item in items)
            acc = await step(acc, item);
        return acc;
    }

    public static async Task<(T Min, T Max)> Range<T>(IAsyncEnumerable<T> items) where T : IComparable<T>
    {
        bool any = false;
        T min = default!, max = default!;
        await foreach (var item in items)
        {
            if (!any || item.CompareTo(min) < 0) min = item;
            if (!any || item.CompareTo(max) > 0) max = item;
            any = true;
        }
        return (min, max);
    }
}
