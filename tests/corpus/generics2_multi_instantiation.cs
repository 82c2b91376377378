// One class implementing a generic interface for several instantiations, explicitly (each
// implementation's method constraints name a different type: U : int, U : string) and implicitly
// (one generic method serving both), static abstract generic async methods with constrained
// method parameters called through TSelf, generic default interface methods of a generic interface
// with constraints on both levels, and generic structs with unmanaged/struct constraints on the
// type whose async instance methods are generic too.
using System;
using System.Collections.Generic;
using System.Numerics;
using System.Threading.Tasks;

interface IStore<T>
{
    Task<string> Put<U>(U value) where U : T;
    Task<string> Tag<V>(V value) where V : IFormattable;
    async Task<string> Both<W>(T first, W second) where W : IEquatable<W>
    {
        await Program.Pause();
        var a = await Put<T>(first);
        await Program.Pause();
        return $"both[{typeof(T).Name},{typeof(W).Name}] {a} eq={second.Equals(second)}";
    }
}

sealed class Multi : IStore<IComparable>, IStore<object>, IStore<ValueType>
{
    public readonly List<string> Log = new();

    async Task<string> IStore<IComparable>.Put<U>(U value)
    {
        await Program.Pause();
        Log.Add("cmp");
        return $"cmp:{typeof(U).Name}:{value.CompareTo(value)}";
    }

    async Task<string> IStore<object>.Put<U>(U value)
    {
        await Program.Pause();
        Log.Add("obj");
        return $"obj:{typeof(U).Name}:{value}";
    }

    async Task<string> IStore<ValueType>.Put<U>(U value)
    {
        await Program.Pause();
        Log.Add("val");
        return $"val:{typeof(U).Name}:{value}";
    }

    public async Task<string> Tag<V>(V value) where V : IFormattable
    {
        await Program.Pause();
        Log.Add("tag");
        return value.ToString("X", null);
    }
}

class Shared<T> : IStore<T>, IStore<List<T>> where T : notnull
{
    public virtual async Task<string> Put<U>(U value) where U : T
    {
        await Program.Pause();
        return $"shared<{typeof(T).Name}>.put {value}";
    }

    async Task<string> IStore<List<T>>.Put<U>(U value)
    {
        await Program.Pause();
        return $"list<{typeof(T).Name}> count={value.Count}";
    }

    public async Task<string> Tag<V>(V value) where V : IFormattable
    {
        await Program.Pause();
        return $"shared tag {value.ToString("F1", System.Globalization.CultureInfo.InvariantCulture)}";
    }
}

sealed class SharedDerived<T> : Shared<T> where T : notnull
{
    public override async Task<string> Put<U>(U value)
    {
        var b = await base.Put(value);
        await Program.Pause();
        return "derived+" + b;
    }
}

interface IParser<TSelf> where TSelf : IParser<TSelf>
{
    static abstract Task<TSelf> Parse<TNum>(TNum seed) where TNum : INumber<TNum>;
    static virtual async Task<List<TSelf>> ParseAll<TNum>(IEnumerable<TNum> seeds) where TNum : INumber<TNum>
    {
        var list = new List<TSelf>();
        foreach (var s in seeds)
            list.Add(await TSelf.Parse(s + TNum.One));
        return list;
    }
}

sealed class Token : IParser<Token>
{
    public string Text = "";
    public static async Task<Token> Parse<TNum>(TNum seed) where TNum : INumber<TNum>
    {
        await Program.Pause();
        var doubled = seed + seed;
        await Program.Pause();
        return new Token { Text = $"{typeof(TNum).Name}:{doubled}" };
    }
    public override string ToString() => Text;
}

sealed class Sym : IParser<Sym>
{
    public long Code;
    public Sym(long code) => Code = code;
    public static async Task<Sym> Parse<TNum>(TNum seed) where TNum : INumber<TNum>
    {
        await Program.Pause();
        return new Sym(long.CreateTruncating(seed) * 10);
    }
    public static async Task<List<Sym>> ParseAll<TNum>(IEnumerable<TNum> seeds) where TNum : INumber<TNum>
    {
        var list = new List<Sym>();
        foreach (var s in seeds)
        {
            await Program.Pause();
            list.Add(await Parse(s));
        }
        list.Reverse();
        return list;
    }
    public override string ToString() => $"sym{Code}";
}

struct Buffer<T> where T : unmanaged, IEquatable<T>
{
    private T _last;
    public int Writes;

    public async Task<int> Write<TSource>(TSource source, Func<TSource, T> convert) where TSource : struct
    {
        T value = convert(source);
        await Program.Pause();
        bool same = value.Equals(_last);
        _last = value;
        Writes++;
        int size;
        unsafe { size = sizeof(T); }
        await Program.Pause();
        return same ? -size : size;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> ParseWith<TParser>(params int[] seeds) where TParser : IParser<TParser>
    {
        var one = await TParser.Parse(2.5);
        var all = await TParser.ParseAll(seeds);
        await Pause();
        return $"{one} / {string.Join(",", all)}";
    }

    static async Task<string> Through<T, U>(IStore<T> store, U value) where U : T
    {
        await Pause();
        return await store.Put(value);
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var multi = new Multi();
            Console.WriteLine(await ((IStore<IComparable>)multi).Put(5));
            Console.WriteLine(await ((IStore<object>)multi).Put("s"));
            Console.WriteLine(await ((IStore<ValueType>)multi).Put(2.5));
            Console.WriteLine(await Through<IComparable, string>(multi, "abc"));
            Console.WriteLine(await Through<object, int[]>(multi, new[] { 1 }));
            Console.WriteLine(await ((IStore<object>)multi).Tag(255));
            Console.WriteLine(await ((IStore<ValueType>)multi).Tag(4095L));
            Console.WriteLine(await ((IStore<IComparable>)multi).Both("x", 3));
            Console.WriteLine(await ((IStore<ValueType>)multi).Both(7, "w"));
            Console.WriteLine(string.Join(",", multi.Log));

            var shared = new Shared<string>();
            Console.WriteLine(await shared.Put("direct"));
            Console.WriteLine(await ((IStore<string>)shared).Put("iface"));
            Console.WriteLine(await ((IStore<List<string>>)shared).Put(new List<string> { "a", "b" }));
            Console.WriteLine(await ((IStore<List<string>>)shared).Both(new List<string>(), 1.5));
            Console.WriteLine(await ((IStore<string>)shared).Tag(2.25));
            Shared<int> derived = new SharedDerived<int>();
            Console.WriteLine(await derived.Put(42));
            Console.WriteLine(await ((IStore<int>)derived).Put(43));
            Console.WriteLine(await ((IStore<int>)derived).Both(44, 'c'));
            Console.WriteLine(await Through<List<int>, List<int>>(derived, new List<int> { 9 }));

            Console.WriteLine(await ParseWith<Token>(1, 2));
            Console.WriteLine(await ParseWith<Sym>(3, 4, 5));

            var buffer = new Buffer<long>();
            Console.WriteLine($"{await buffer.Write(3, i => (long)i)} {await buffer.Write(3.0, d => (long)d)} writes={buffer.Writes}");
            var box = new[] { new Buffer<char>() };
            Console.WriteLine($"{await box[0].Write((byte)65, b => (char)b)} {await box[0].Write((byte)65, b => (char)b)} writes={box[0].Writes}");
        }
    }
}
