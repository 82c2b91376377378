// One generic async class and one generic async method instantiated over many reference types (one
// shared native body, the exact type coming from the generic context) and value types (one body
// each): per-instantiation static state, typeof(T), default(T), `is T` tests, arrays of T and
// Task<T[]>, all read after suspending, where a lost generic context would show the wrong type.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

class Counter<T>
{
    public static int Created;
    public static List<string> Seen = new();

    public static async Task<Counter<T>> Create(T first)
    {
        await Program.Pause();
        Created++;
        Seen.Add($"{typeof(T).Name}:{first}");
        return new Counter<T>();
    }

    public async Task<T[]> Fill(int n, Func<int, T> make)
    {
        var items = new T[n];
        for (int i = 0; i < n; i++)
        {
            await Program.Pause();
            items[i] = make(i);
        }
        return items;
    }

    public async Task<string> Classify(object o)
    {
        await Program.Pause();
        return o is T t ? $"is {typeof(T).Name} ({t})" : $"not {typeof(T).Name} (default {default(T)?.ToString() ?? "null"})";
    }
}

sealed class Animal
{
    public override string ToString() => "animal";
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Probe<T>(T value)
    {
        var c = await Counter<T>.Create(value);
        var filled = await c.Fill(2, _ => value);
        var cls = await c.Classify(value!);
        var other = await c.Classify(3.25);
        return $"{typeof(T).Name}[{filled.Length}] {cls}; {other}; created={Counter<T>.Created}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Probe("str"));
            Console.WriteLine(await Probe(new Animal()));
            Console.WriteLine(await Probe(new object()));
            Console.WriteLine(await Probe(new List<string>()));
            Console.WriteLine(await Probe(new int[] { 1 }));
            Console.WriteLine(await Probe(7));
            Console.WriteLine(await Probe(7L));
            Console.WriteLine(await Probe(2.5));
            Console.WriteLine(await Probe(DayOfWeek.Friday));
            Console.WriteLine(await Probe((1, "t")));
            Console.WriteLine(await Probe<int?>(null));
            Console.WriteLine(await Probe<object?>(null));
            Console.WriteLine(string.Join(" ", Counter<string>.Seen) + " | " + string.Join(" ", Counter<int>.Seen));
        }
    }
}
