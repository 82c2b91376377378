// Locations computed before an await and written after it, where the element or field is reached
// through an array or a chain of structs: compound assignments to multi-dimensional array elements
// (int[,], long[,,], decimal[,]) whose indices log, struct elements of arrays mutated by instance
// calls with awaited arguments (in place, not on a copy), generic T[] elements with INumber<T> and
// with a struct T mutated through a constrained interface call, nested struct fields through a class,
// a static struct and a struct local, nullable and Int128 elements, Interlocked on a 2-D element, and
// the timing of the exceptions such targets throw (null array, index out of range, covariant array
// store, checked overflow): which side effects ran, whether the await ran, what the element holds.
using System;
using System.Collections.Generic;
using System.Numerics;
using System.Threading;
using System.Threading.Tasks;

struct Point
{
    public int X, Y;
    public void Move(int dx, int dy) { X += dx; Y += dy; }
    public override string ToString() => $"({X},{Y})";
}

interface IAdder { void Add(int v); int Total { get; } }

struct Acc : IAdder
{
    public int Sum;
    public void Add(int v) => Sum += v;
    public int Total => Sum;
}

struct Inner { public int Count; public Point P; }
struct Outer { public Inner In; public long Wide; }
sealed class Holder { public Outer O; public Point[] Pts = { new Point(), new Point() }; }

static class Program
{
    static bool Suspend;
    static readonly List<string> Log = new();
    static Outer s_outer;

    static int L(string tag, int v) { Log.Add(tag); return v; }

    static async Task<T> V<T>(string tag, T value)
    {
        Log.Add(tag);
        if (Suspend) await Task.Yield();
        return value;
    }

    static string Flush()
    {
        var s = string.Join(" ", Log);
        Log.Clear();
        return s;
    }

    static async Task MultiDim()
    {
        var grid = new int[3, 4];
        grid[L("r", 1), L("c", 2)] += await V("v", 5);
        grid[L("r", 1), L("c", 2)] *= await V("v", 3);
        grid[L("r", 2), L("c", 3)] = grid[1, 2] - await V("v", 1);
        var cube = new long[2, 2, 2];
        cube[L("a", 1), L("b", 0), L("c", 1)] -= await V("v", 7L) << 40;
        var money = new decimal[2, 2];
        money[L("r", 0), L("c", 1)] += await V("v", 1.25m);
        money[L("r", 0), L("c", 1)] /= await V("v", 0.5m);
        Console.WriteLine($"  multidim: {grid[1, 2]} {grid[2, 3]} {cube[1, 0, 1]} {money[0, 1]} | {Flush()}");
        Interlocked.Add(ref grid[L("r", 0), L("c", 0)], await V("v", 9));
        long old = Interlocked.Exchange(ref cube[L("a", 0), L("b", 0), L("c", 0)], await V("v", 11L));
        Console.WriteLine($"  interlocked: {grid[0, 0]} {cube[0, 0, 0]} {old} | {Flush()}");
    }

    static async Task StructElements()
    {
        var pts = new Point[3];
        pts[L("i", 1)].Move(await V("dx", 3), L("dy", 4));
        pts[L("i", 1)].Move(L("dx", 1), await V("dy", 10));
        pts[L("i", 2)].X += await V("v", 6);
        var h = new Holder();
        h.Pts[L("i", 0)].Move(await V("dx", 2), await V("dy", 5));
        h.O.In.P.Move(await V("dx", 7), L("dy", 8));
        h.O.In.Count += await V("v", 4);
        h.O.Wide -= await V("v", 3);
        s_outer.In.P.Y += await V("v", 12);
        s_outer.In.Count = s_outer.In.Count * 2 + await V("v", 1);
        var local = new Outer();
        local.In.P.Move(await V("dx", 1), await V("dy", 2));
        local.In.Count -= await V("v", 5);
        Console.WriteLine($"  structs: {pts[1]} {pts[2]} {h.Pts[0]} {h.O.In.P} {h.O.In.Count} {h.O.Wide} {s_outer.In.P} {s_outer.In.Count} {local.In.P} {local.In.Count} | {Flush()}");
    }

    static async Task<string> Generic<T>(T[] items, T step) where T : INumber<T>
    {
        items[L("i", 0)] += await V("v", step);
        items[L("i", 1)] = items[0] * await V("v", step + T.One);
        items[L("i", 1)]++;
        return string.Join(",", items);
    }

    static async Task<string> Adders<T>(T[] items) where T : IAdder
    {
        items[L("i", 0)].Add(await V("v", 5));
        items[L("i", 0)].Add(await V("v", 6));
        items[L("i", 1)].Add(L("k", 1) + await V("v", 2));
        return items[0].Total + "," + items[1].Total;
    }

    static async Task Nullables()
    {
        var ns = new int?[] { 1, null, 3 };
        ns[L("i", 0)] += await V<int?>("v", 4);
        ns[L("i", 1)] += await V<int?>("v", 4);
        ns[L("i", 2)] += await V<int?>("v", null);
        ns[L("i", 1)] ??= await V<int?>("v", 8);
        ns[L("i", 0)] ??= await V<int?>("v", 9);
        var bigs = new Int128[] { Int128.MaxValue - 5, 1 };
        bigs[L("i", 1)] <<= await V("v", 100);
        bigs[L("i", 0)] += await V("v", (Int128)5);
        try { checked { bigs[L("i", 0)] += await V("v", (Int128)1); } }
        catch (OverflowException) { Log.Add("overflow"); }
        Console.WriteLine($"  nullables: {string.Join(",", ns)} {bigs[0] == Int128.MaxValue} {bigs[1]} | {Flush()}");
    }

    static async Task Exceptions()
    {
        int[]? none = null;
        var arr = new[] { 1, 2 };
        try { none![L("i", 0)] = await V("v", 1); } catch (NullReferenceException) { Log.Add("NRE"); }
        Console.WriteLine($"  null store: {Flush()}");
        try { none![L("i", 0)] += await V("v", 1); } catch (NullReferenceException) { Log.Add("NRE"); }
        Console.WriteLine($"  null compound: {Flush()}");
        try { arr[L("i", 5)] = await V("v", 1); } catch (IndexOutOfRangeException) { Log.Add("IOOR"); }
        Console.WriteLine($"  range store: {Flush()}");
        try { arr[L("i", 5)] += await V("v", 1); } catch (IndexOutOfRangeException) { Log.Add("IOOR"); }
        Console.WriteLine($"  range compound: {Flush()}");
        var grid = new int[2, 2];
        try { grid[L("r", 0), L("c", 2)] -= await V("v", 1); } catch (IndexOutOfRangeException) { Log.Add("IOOR"); }
        Console.WriteLine($"  range 2d: {Flush()}");
        object[] objs = new string[2];
        try { objs[L("i", 1)] = await V<object>("v", 42); } catch (ArrayTypeMismatchException) { Log.Add("mismatch"); }
        Console.WriteLine($"  covariant: {objs[1] ?? "null"} {Flush()}");
        try { checked { arr[L("i", 1)] += await V("v", int.MaxValue); } } catch (OverflowException) { Log.Add("overflow"); }
        Console.WriteLine($"  checked: {arr[1]} {Flush()}");
        var pts = new Point[1];
        try { pts[L("i", 0)].Move(await V("dx", 1), Throw<int>("dy")); } catch (InvalidOperationException e) { Log.Add(e.Message); }
        Console.WriteLine($"  throwing arg: {pts[0]} {Flush()}");
        try { pts[L("i", 3)].Move(await V("dx", 1), L("dy", 2)); } catch (IndexOutOfRangeException) { Log.Add("IOOR"); }
        Console.WriteLine($"  range receiver: {Flush()}");
    }

    static T Throw<T>(string tag) { Log.Add(tag); throw new InvalidOperationException("boom:" + tag); }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            s_outer = default;
            Console.WriteLine($"suspend={suspend}");
            await MultiDim();
            await StructElements();
            Console.WriteLine($"  generic int: {await Generic(new[] { 1, 2 }, 3)} | {Flush()}");
            Console.WriteLine($"  generic double: {await Generic(new[] { 0.5, 2 }, 0.25)} | {Flush()}");
            Console.WriteLine($"  generic decimal: {await Generic(new[] { 1.1m, 2m }, 2m)} | {Flush()}");
            Console.WriteLine($"  adders: {await Adders(new Acc[2])} | {Flush()}");
            await Nullables();
            await Exceptions();
        }
    }
}
