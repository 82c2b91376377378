// Async methods of generic structs instantiated over reference and value types, a generic struct
// nested in a generic class, generic async methods of a struct, and a struct whose async method
// awaits async methods of the struct values it holds.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

struct Pair<TLeft, TRight>
{
    public TLeft Left;
    public TRight Right;

    public async Task<string> Show()
    {
        await Program.Pause();
        return $"({Left}, {Right})";
    }

    public async Task<Pair<TRight, TLeft>> Swap()
    {
        await Program.Pause();
        return new Pair<TRight, TLeft> { Left = Right, Right = Left };
    }

    public async Task<TResult> Fold<TResult>(Func<TLeft, TRight, Task<TResult>> f)
    {
        var r = await f(Left, Right);
        await Program.Pause();
        return r;
    }
}

class Registry<TKey> where TKey : notnull
{
    public struct Entry<TValue>
    {
        public TKey Key;
        public TValue Value;

        public async Task<KeyValuePair<TKey, TValue>> Resolve()
        {
            await Program.Pause();
            return new KeyValuePair<TKey, TValue>(Key, Value);
        }
    }

    public async Task<string> Collect<TValue>(Entry<TValue>[] entries)
    {
        var parts = new List<string>();
        foreach (var e in entries)
        {
            var kv = await e.Resolve();
            parts.Add($"{kv.Key}={kv.Value}");
        }
        return string.Join(";", parts);
    }
}

struct Nest
{
    public Pair<int, string> Inner;
    public async Task<string> Deep()
    {
        var swapped = await Inner.Swap();
        return await swapped.Show() + "/" + await Inner.Show();
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var a = new Pair<int, double> { Left = 1, Right = 2.5 };
            var b = new Pair<string, object> { Left = "s", Right = new List<int>().Count };
            var c = new Pair<string, Pair<int, double>> { Left = "nested", Right = a };
            Console.WriteLine($"{await a.Show()} {await b.Show()} {await c.Show()}");
            Console.WriteLine($"{await (await a.Swap()).Show()} {await (await b.Swap()).Show()}");
            Console.WriteLine(await a.Fold(async (l, r) => { await Pause(); return l + r; }));
            Console.WriteLine(await b.Fold(async (l, r) => l + ":" + r));
            var reg = new Registry<string>();
            Console.WriteLine(await reg.Collect(new[] { new Registry<string>.Entry<int> { Key = "a", Value = 1 }, new Registry<string>.Entry<int> { Key = "b", Value = 2 } }));
            Console.WriteLine(await new Registry<int>().Collect(new[] { new Registry<int>.Entry<string> { Key = 7, Value = "seven" } }));
            Console.WriteLine(await new Nest { Inner = new Pair<int, string> { Left = 4, Right = "four" } }.Deep());
        }
    }
}
