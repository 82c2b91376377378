// Generic async methods under every kind of constraint: class, class?, struct, unmanaged, new(),
// notnull, an interface, a base class, a type parameter bound to another (U : T), and several at
// once; each is called with reference and value type arguments where the constraint allows, so that
// shared (reference) and specialized (value) code both run.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

interface IShape
{
    double Area { get; }
}

class Square : IShape
{
    public double Side = 2;
    public double Area => Side * Side;
    public override string ToString() => $"Square({Side})";
}

sealed class BigSquare : Square
{
    public BigSquare() => Side = 10;
}

struct Circle : IShape
{
    public double R;
    public double Area => Math.Round(3.14 * R * R, 2);
    public override string ToString() => $"Circle({R})";
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> OrDefault<T>(T? value) where T : class
    {
        await Pause();
        return value?.ToString() ?? $"null {typeof(T).Name}";
    }

    static async Task<T?> Maybe<T>(bool has, T value) where T : struct
    {
        await Pause();
        return has ? value : null;
    }

    static async Task<int> SizeOf<T>(T[] values) where T : unmanaged
    {
        await Pause();
        return values.Length * System.Runtime.CompilerServices.Unsafe.SizeOf<T>();
    }

    static async Task<T> Fresh<T>() where T : new()
    {
        await Pause();
        return new T();
    }

    static async Task<double> TotalArea<T>(IEnumerable<T> shapes) where T : IShape
    {
        double total = 0;
        foreach (var s in shapes)
        {
            await Pause();
            total += s.Area;
        }
        return total;
    }

    static async Task<string> Upcast<T, U>(U derived) where U : T where T : Square
    {
        await Pause();
        T asBase = derived;
        return $"{typeof(T).Name}<-{typeof(U).Name}: {asBase.Area}";
    }

    static async Task<string> Keyed<TKey, TValue>(TKey key, TValue value)
        where TKey : notnull, IComparable<TKey>
        where TValue : IShape, new()
    {
        var fresh = new TValue();
        await Pause();
        return $"{key}: {value.Area} vs new {fresh.Area} cmp={key.CompareTo(key)}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine($"{await OrDefault("text")} {await OrDefault<string>(null)} {await OrDefault(new Square())}");
            Console.WriteLine($"{await Maybe(true, 5)} {(await Maybe(false, 2.5)).HasValue} {await Maybe(true, new Circle { R = 1 })}");
            Console.WriteLine($"{await SizeOf(new[] { 1, 2 })} {await SizeOf(new[] { 1L })} {await SizeOf(new[] { (byte)1, (byte)2, (byte)3 })}");
            Console.WriteLine($"{await Fresh<Square>()} {await Fresh<Circle>()} {(await Fresh<List<int>>()).Count}");
            Console.WriteLine($"{await TotalArea(new[] { new Circle { R = 1 }, new Circle { R = 2 } })} {await TotalArea(new IShape[] { new Square(), new Circle { R = 1 } })} {await TotalArea(new List<Square> { new BigSquare() })}");
            Console.WriteLine($"{await Upcast<Square, BigSquare>(new BigSquare())} {await Upcast<Square, Square>(new Square())}");
            Console.WriteLine($"{await Keyed("k", new Circle { R = 3 })} {await Keyed(42, new Square())}");
        }
    }
}
