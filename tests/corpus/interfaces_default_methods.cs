// Default interface methods with async bodies: a default implementation calling abstract members of
// the same interface, a derived interface overriding a base interface's default (explicitly), a class
// that keeps the default and one that replaces it, a private and a static async helper inside an
// interface, and generic interfaces with async defaults over reference and value types.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

interface IGreeter
{
    string Name { get; }
    Task<string> Prefix();

    async Task<string> Greet(int times)
    {
        var parts = new List<string>();
        for (int i = 0; i < times; i++)
            parts.Add(await Decorate(await Prefix()));
        return string.Join(" ", parts);
    }

    private async Task<string> Decorate(string prefix)
    {
        await Program.Pause();
        return $"{prefix} {Name}";
    }

    static async Task<string> Twice(IGreeter g) => await g.Greet(1) + " & " + await g.Greet(1);
}

interface IPoliteGreeter : IGreeter
{
    async Task<string> IGreeter.Greet(int times)
    {
        await Program.Pause();
        return $"Dear {Name} (x{times})";
    }
}

class Plain : IGreeter
{
    public string Name => "plain";
    public async Task<string> Prefix()
    {
        await Program.Pause();
        return "hi";
    }
}

class Polite : IPoliteGreeter
{
    public string Name => "polite";
    public Task<string> Prefix() => Task.FromResult("hello");
}

class Custom : IGreeter
{
    public string Name => "custom";
    public async Task<string> Prefix() => "hey";
    public async Task<string> Greet(int times)
    {
        await Program.Pause();
        return $"custom greeting {times}";
    }
}

interface IAccumulator<T>
{
    List<T> Items { get; }

    async Task<int> AddAll(IEnumerable<T> values)
    {
        foreach (var v in values)
        {
            await Program.Pause();
            Items.Add(v);
        }
        return Items.Count;
    }
}

sealed class Bag<T> : IAccumulator<T>
{
    public List<T> Items { get; } = new();
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
            foreach (IGreeter g in new IGreeter[] { new Plain(), new Polite(), new Custom() })
            {
                Console.WriteLine($"{g.GetType().Name}: {await g.Greet(2)}");
                Console.WriteLine($"  twice: {await IGreeter.Twice(g)}");
            }
            IAccumulator<int> ints = new Bag<int>();
            Console.WriteLine($"{await ints.AddAll(new[] { 1, 2, 3 })} {string.Join(",", ints.Items)}");
            IAccumulator<string> strings = new Bag<string>();
            await strings.AddAll(new[] { "a" });
            Console.WriteLine($"{await strings.AddAll(new[] { "b", "c" })} {string.Join(",", strings.Items)}");
        }
    }
}
