// Async methods of generic classes: instance and static methods, fields of T, generic methods of
// generic classes, nested generic types (Outer<T>.Inner<U>), a non-generic class nested in a
// generic one, a derived class over Base<int>, virtual overrides, and awaits between calls on
// different instantiations (int, string, a struct, a class).
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

struct Money
{
    public decimal Amount;
    public Money(decimal amount) { Amount = amount; }
    public override string ToString() => $"${Amount}";
}

sealed class Tag
{
    public string Label = "";
    public override string ToString() => $"#{Label}";
}

static class Delay
{
    public static bool Suspend;

    public static async Task<T> Yield<T>(T value)
    {
        if (Suspend) await Task.Yield();
        return value;
    }
}

class Repo<T>
{
    private readonly Dictionary<int, T> _items = new();
    private int _reads;

    public static async Task<Repo<T>> CreateAsync(params T[] seed)
    {
        var repo = new Repo<T>();
        for (int i = 0; i < seed.Length; i++)
            await repo.PutAsync(i, seed[i]);
        return repo;
    }

    public async Task PutAsync(int key, T value)
    {
        await Delay.Yield(key);
        _items[key] = value;
    }

    public async Task<T> GetAsync(int key)
    {
        _reads++;
        await Delay.Yield(key);
        return _items.TryGetValue(key, out var value) ? value : throw new KeyNotFoundException($"no {key} in Repo<{typeof(T).Name}>");
    }

    public async Task<T?> TryGetAsync(int key)
    {
        try
        {
            return await GetAsync(key);
        }
        catch (KeyNotFoundException e)
        {
            Console.WriteLine($"  caught: {e.Message}");
            return default;
        }
    }

    public async Task<TResult> MapAsync<TResult>(int key, Func<T, TResult> map)
    {
        var value = await GetAsync(key);
        var mapped = map(value);
        return await Delay.Yield(mapped);
    }

    public async Task<Repo<TResult>> SelectAsync<TResult>(Func<T, TResult> map)
    {
        var result = new Repo<TResult>();
        foreach (var key in _items.Keys)
            await result.PutAsync(key, await MapAsync(key, map));
        return result;
    }

    public int Reads => _reads;
    public int Count => _items.Count;
}

class Outer<T>
{
    public T Seed;
    public Outer(T seed) { Seed = seed; }

    public class Inner<U>
    {
        public U Extra;
        public Inner(U extra) { Extra = extra; }

        public async Task<string> CombineAsync(Outer<T> outer)
        {
            var t = await Delay.Yield(outer.Seed);
            var u = await Delay.Yield(Extra);
            return $"{typeof(T).Name}/{typeof(U).Name}: {t} + {u}";
        }

        public async Task<(T, U, V)> TripleAsync<V>(T t, V v)
        {
            var a = await Delay.Yield(t);
            var c = await Delay.Yield(v);
            return (a, Extra, c);
        }
    }

    public class Counter
    {
        public int Count;

        public async Task<int> AddAsync(T item)
        {
            await Delay.Yield(item);
            return ++Count;
        }
    }

    public async Task<string> UseInnerAsync<U>(U extra)
    {
        var inner = new Inner<U>(extra);
        return await inner.CombineAsync(this);
    }
}

abstract class Base<T>
{
    public virtual async Task<string> NameAsync(T value)
    {
        await Delay.Yield(value);
        return $"Base<{typeof(T).Name}>({value})";
    }

    protected async Task<T> KeepAsync(T value) => await Delay.Yield(value);
}

sealed class IntDerived : Base<int>
{
    public override async Task<string> NameAsync(int value)
    {
        var kept = await KeepAsync(value * 2); // call on Base<int>
        var baseName = await base.NameAsync(kept);
        return "Derived:" + baseName;
    }
}

sealed class Plain<T> : Base<T> { }

static class Program
{
    static async Task Run()
    {
        var ints = await Repo<int>.CreateAsync(10, 20, 30);
        Console.WriteLine($"Repo<int>[1] = {await ints.GetAsync(1)}");
        Console.WriteLine($"Repo<int>.TryGet(7) = {await ints.TryGetAsync(7)}");
        var strings = await Repo<string>.CreateAsync("a", "b");
        Console.WriteLine($"Repo<string>[0] = {await strings.GetAsync(0)}");
        Console.WriteLine($"Repo<string>.TryGet(5) = {await strings.TryGetAsync(5) ?? "null"}");
        var money = await Repo<Money>.CreateAsync(new Money(1.5m), new Money(2m));
        Console.WriteLine($"Repo<Money>.Map = {await money.MapAsync(1, m => m.Amount * 10)}");
        var tags = await Repo<Tag>.CreateAsync(new Tag { Label = "x" }, new Tag { Label = "y" });
        Console.WriteLine($"Repo<Tag>.Map = {await tags.MapAsync(0, t => t.Label.ToUpperInvariant())}");
        var lengths = await strings.SelectAsync(s => s.Length + 100);
        Console.WriteLine($"Select<string,int> = {await lengths.GetAsync(0)},{await lengths.GetAsync(1)} reads={strings.Reads}");
        var wrapped = await ints.SelectAsync(i => new Tag { Label = i.ToString() });
        Console.WriteLine($"Select<int,Tag> = {await wrapped.GetAsync(2)} count={wrapped.Count}");

        var outer = new Outer<int>(5);
        Console.WriteLine(await new Outer<int>.Inner<string>("five").CombineAsync(outer));
        Console.WriteLine(await new Outer<string>.Inner<Money>(new Money(3m)).CombineAsync(new Outer<string>("s")));
        Console.WriteLine(await new Outer<Tag>.Inner<int>(8).TripleAsync(new Tag { Label = "t" }, 2.5));
        Console.WriteLine(await outer.UseInnerAsync(new Tag { Label = "via outer" }));
        Console.WriteLine(await new Outer<Money>(new Money(9m)).UseInnerAsync(7L));
        var counter = new Outer<string>.Counter();
        await counter.AddAsync("one");
        Console.WriteLine($"Counter<string> = {await counter.AddAsync("two")}");
        var structCounter = new Outer<Money>.Counter();
        Console.WriteLine($"Counter<Money> = {await structCounter.AddAsync(new Money(1m))}");

        Base<int> derived = new IntDerived();
        Console.WriteLine(await derived.NameAsync(21));
        Console.WriteLine(await new Plain<string>().NameAsync("plain"));
        Console.WriteLine(await new Plain<Money>().NameAsync(new Money(4m)));
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Delay.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            await Run();
        }
    }
}
