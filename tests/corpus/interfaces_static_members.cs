// Static abstract and static virtual async interface members implemented by classes (generic math
// style factories), called through constrained type parameters (T.Create()), a static virtual member
// with a default async body that an implementation keeps or replaces, and static async methods of
// an interface itself.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

interface IFactory<TSelf> where TSelf : IFactory<TSelf>
{
    static abstract Task<TSelf> Create(int seed);

    static virtual async Task<string> Describe(int seed)
    {
        var made = await TSelf.Create(seed);
        await Program.Pause();
        return $"default describe of {made}";
    }

    static async Task<List<TSelf>> CreateRange(int from, int count)
    {
        var list = new List<TSelf>();
        for (int i = from; i < from + count; i++)
            list.Add(await TSelf.Create(i));
        return list;
    }
}

sealed class Apple : IFactory<Apple>
{
    public int Weight;
    public static async Task<Apple> Create(int seed)
    {
        await Program.Pause();
        return new Apple { Weight = seed * 10 };
    }
    public override string ToString() => $"Apple({Weight})";
}

sealed class Pear : IFactory<Pear>
{
    public string Kind = "";
    public static async Task<Pear> Create(int seed)
    {
        if (seed % 2 == 0) await Program.Pause();
        return new Pear { Kind = seed % 2 == 0 ? "even" : "odd" };
    }

    public static async Task<string> Describe(int seed)
    {
        await Program.Pause();
        return $"pear #{seed} is {(await Create(seed)).Kind}";
    }
    public override string ToString() => $"Pear({Kind})";
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Use<T>(int seed) where T : IFactory<T>
    {
        var one = await T.Create(seed);
        var text = await T.Describe(seed);
        var range = await IFactory<T>.CreateRange(seed, 3);
        return $"{one}; {text}; [{string.Join(",", range)}]";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Use<Apple>(1));
            Console.WriteLine(await Use<Pear>(2));
            Console.WriteLine(await Use<Pear>(3));
        }
    }
}
