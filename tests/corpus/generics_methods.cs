// Generic async methods: class, struct, new(), interface and unmanaged constraints, T? over
// structs, instantiations over int, string, a struct and a class, generic methods awaiting
// generic methods directly (same and different instantiations), recursion, default(T) and typeof(T).
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

interface INamed { string Name { get; } }

struct Point : INamed
{
    public int X, Y;
    public Point(int x, int y) { X = x; Y = y; }
    public string Name => $"P({X},{Y})";
    public override string ToString() => Name;
}

sealed class Person : INamed
{
    public string Name { get; set; } = "nobody";
    public override string ToString() => $"Person {Name}";
}

static class Program
{
    static bool Suspend;

    static async Task<T> Echo<T>(T value)
    {
        if (Suspend) await Task.Yield();
        return value;
    }

    static async Task<(T, U)> Pair<T, U>(T first, U second)
    {
        var a = await Echo(first);
        var b = await Echo(second);
        return (a, b);
    }

    static async Task<T> Make<T>() where T : new()
    {
        if (Suspend) await Task.Yield();
        return new T();
    }

    static async Task<string> Describe<T>(T item) where T : INamed
    {
        var echoed = await Echo(item);
        var name = echoed.Name; // constrained call on T
        await Echo(0);
        return $"{typeof(T).Name}:{name}";
    }

    static async Task<T?> FirstOrNull<T>(IEnumerable<T> items, Func<T, bool> match) where T : struct
    {
        foreach (var item in items)
        {
            if (await Echo(match(item)))
                return item;
        }
        return null;
    }

    static async Task<string> OrFallback<T>(T? value, string fallback) where T : class
    {
        var v = await Echo(value);
        return v?.ToString() ?? fallback;
    }

    static async Task<long> SizeSum<T>(T[] values) where T : unmanaged
    {
        long total = 0;
        foreach (var v in values)
        {
            await Echo(v);
            total += System.Runtime.CompilerServices.Unsafe.SizeOf<T>();
        }
        return total;
    }

    static async Task<T> Max<T>(T a, T b) where T : IComparable<T>
    {
        var left = await Echo(a);
        var right = await Echo(b);
        return left.CompareTo(right) >= 0 ? left : right;
    }

    static async Task<List<T>> Repeat<T>(T value, int count)
    {
        if (count == 0)
            return new List<T>();
        var rest = await Repeat(value, count - 1); // generic recursion, same instantiation
        rest.Add(await Echo(value));
        return rest;
    }

    static async Task<string> Nest<T>(T value, int depth)
    {
        if (depth == 0)
            return $"{typeof(T).Name}={value}";
        // A different instantiation at each level: T, then (T, int), ...
        var inner = await Nest<(T, int)>((value, depth), depth - 1);
        return $"[{inner}]";
    }

    static async Task<T> DefaultOf<T>(bool wantDefault, T otherwise)
    {
        await Echo(wantDefault);
        return wantDefault ? default! : otherwise;
    }

    static async ValueTask<int> CountWhere<T>(IEnumerable<T> items, Func<T, Task<bool>> predicate)
    {
        int n = 0;
        foreach (var item in items)
            if (await predicate(item))
                n++;
        return n;
    }

    static async Task Log<T>(string label, T value)
    {
        await Echo(label);
        Console.WriteLine($"  {label}: {value}");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine($"Echo<int> = {await Echo(42)}");
            Console.WriteLine($"Echo<string> = {await Echo("hello")}");
            Console.WriteLine($"Echo<Point> = {await Echo(new Point(1, 2))}");
            Console.WriteLine($"Echo<Person> = {await Echo(new Person { Name = "Ada" })}");
            Console.WriteLine($"Pair<int,string> = {await Pair(7, "seven")}");
            Console.WriteLine($"Pair<Point,Person> = {await Pair(new Point(3, 4), new Person { Name = "Bob" })}");
            Console.WriteLine($"Make<Person> = {await Make<Person>()}");
            Console.WriteLine($"Make<Point> = {await Make<Point>()}");
            Console.WriteLine($"Make<List<int>>.Count = {(await Make<List<int>>()).Count}");
            Console.WriteLine($"Describe<Point> = {await Describe(new Point(5, 6))}");
            Console.WriteLine($"Describe<Person> = {await Describe(new Person { Name = "Cy" })}");
            Console.WriteLine($"FirstOrNull<int> = {await FirstOrNull(new[] { 1, 4, 9 }, x => x > 3)}");
            Console.WriteLine($"FirstOrNull<Point> none = {(await FirstOrNull(new[] { new Point(1, 1) }, p => p.X > 5)).HasValue}");
            Console.WriteLine($"OrFallback<string> = {await OrFallback<string>(null, "fallback")}");
            Console.WriteLine($"OrFallback<Person> = {await OrFallback(new Person { Name = "Di" }, "fallback")}");
            Console.WriteLine($"SizeSum<long> = {await SizeSum(new long[] { 1, 2, 3 })}");
            Console.WriteLine($"SizeSum<Point> = {await SizeSum(new[] { new Point(), new Point() })}");
            Console.WriteLine($"Max<int> = {await Max(3, 9)}");
            Console.WriteLine($"Max<string> = {await Max("pear", "apple")}");
            Console.WriteLine($"Repeat<string> = {string.Join(",", await Repeat("x", 3))}");
            Console.WriteLine($"Repeat<Point> = {string.Join(",", await Repeat(new Point(1, 0), 2))}");
            Console.WriteLine($"Nest<int> = {await Nest(1, 2)}");
            Console.WriteLine($"Nest<string> = {await Nest("s", 1)}");
            Console.WriteLine($"DefaultOf<int> = {await DefaultOf(true, 5)} {await DefaultOf(false, 5)}");
            Console.WriteLine($"DefaultOf<string> = {await DefaultOf(true, "x") ?? "null"} {await DefaultOf(false, "x")}");
            Console.WriteLine($"CountWhere<int> = {await CountWhere(new[] { 1, 2, 3, 4 }, async x => await Echo(x % 2 == 0))}");
            Console.WriteLine($"CountWhere<string> = {await CountWhere(new[] { "a", "bb", "ccc" }, async s => await Echo(s.Length > 1))}");
            await Log("int", 1);
            await Log("Point", new Point(9, 9));
            await Log<Person?>("null person", null);
        }
    }
}
