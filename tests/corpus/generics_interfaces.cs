// Generic interfaces with async members: generic classes implementing them, calls through the
// interface and through constrained type parameters (where TStore : IStore<T>), static abstract
// async factories (T.CreateAsync()), generic virtual methods overridden in generic subclasses,
// and a generic class calling base.M<U>() on its generic base.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

interface IStore<T>
{
    Task<T> LoadAsync(string key);
    Task SaveAsync(string key, T value);
}

interface ICreatable<TSelf> where TSelf : ICreatable<TSelf>
{
    static abstract Task<TSelf> CreateAsync(int seed);
}

sealed class MemoryStore<T> : IStore<T>
{
    private readonly Dictionary<string, T> _data = new();

    public async Task<T> LoadAsync(string key)
    {
        await Program.Pause();
        return _data[key];
    }

    public async Task SaveAsync(string key, T value)
    {
        await Program.Pause();
        _data[key] = value;
    }
}

sealed class Widget : ICreatable<Widget>
{
    public int Size;
    public static async Task<Widget> CreateAsync(int seed)
    {
        await Program.Pause();
        return new Widget { Size = seed * 3 };
    }
    public override string ToString() => $"Widget{Size}";
}

readonly struct Gadget : ICreatable<Gadget>
{
    public readonly int Id;
    public Gadget(int id) { Id = id; }
    public static async Task<Gadget> CreateAsync(int seed)
    {
        await Program.Pause();
        return new Gadget(seed + 100);
    }
    public override string ToString() => $"Gadget{Id}";
}

class Transformer
{
    public virtual async Task<string> ApplyAsync<T>(T value)
    {
        await Program.Pause();
        return $"base({value})";
    }
}

class Wrapping<TTag> : Transformer
{
    public override async Task<string> ApplyAsync<T>(T value)
    {
        var inner = await base.ApplyAsync(value); // a direct call to the base's generic method
        await Program.Pause();
        return $"{typeof(TTag).Name}[{inner}]";
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> RoundTrip<TStore, T>(TStore store, string key, T value) where TStore : IStore<T>
    {
        await store.SaveAsync(key, value); // constrained call through the type parameter
        var loaded = await store.LoadAsync(key);
        return $"{typeof(TStore).Name}: {loaded}";
    }

    static async Task<List<T>> CreateMany<T>(int count) where T : ICreatable<T>
    {
        var list = new List<T>();
        for (int i = 1; i <= count; i++)
            list.Add(await T.CreateAsync(i));
        return list;
    }

    static async Task<string> ThroughInterface<T>(IStore<T> store, T a, T b)
    {
        await store.SaveAsync("a", a);
        await store.SaveAsync("b", b);
        return $"{await store.LoadAsync("b")},{await store.LoadAsync("a")}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await RoundTrip(new MemoryStore<int>(), "k", 5));
            Console.WriteLine(await RoundTrip(new MemoryStore<string>(), "k", "five"));
            Console.WriteLine(await RoundTrip<IStore<Gadget>, Gadget>(new MemoryStore<Gadget>(), "k", new Gadget(1)));
            Console.WriteLine(string.Join(",", await CreateMany<Widget>(3)));
            Console.WriteLine(string.Join(",", await CreateMany<Gadget>(2)));
            Console.WriteLine(await ThroughInterface(new MemoryStore<double>(), 1.5, 2.5));
            Console.WriteLine(await ThroughInterface<object>(new MemoryStore<object>(), "x", 7));
            Transformer t = new Wrapping<Widget>();
            Console.WriteLine(await t.ApplyAsync(42));
            Console.WriteLine(await t.ApplyAsync("s"));
            Console.WriteLine(await new Wrapping<int>().ApplyAsync(new Gadget(7)));
        }
    }
}
