// [UnsafeAccessor] reaching private async methods of a mutable struct through a ref receiver (a local,
// an array element, a class field), a private async method of a generic struct, and a private static
// async method with a default argument, awaited before and after suspensions; the caller's struct
// must stay as classic async leaves it (the method works on a copy).
using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

struct Meter
{
    private int _ticks;
    private string _name;

    public Meter(string name) => _name = name;

    private async Task<int> TickAsync(int by)
    {
        _ticks += by;
        await Program.Pause();
        _ticks += by;
        return _ticks;
    }

    private static async Task<string> LabelAsync(string s, int width = 6)
    {
        await Program.Pause();
        return s.PadLeft(width, '.');
    }

    public override string ToString() => $"{_name}:{_ticks}";
}

struct Pair<T>
{
    private T _left;
    private T _right;

    public Pair(T left, T right) { _left = left; _right = right; }

    private async ValueTask<T> SwapAsync()
    {
        (_left, _right) = (_right, _left);
        await Program.Pause();
        return _left;
    }

    public override string ToString() => $"({_left}, {_right})";
}

static class Access
{
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "TickAsync")]
    public static extern Task<int> Tick(ref Meter m, int by);

    [UnsafeAccessor(UnsafeAccessorKind.StaticMethod, Name = "LabelAsync")]
    public static extern Task<string> Label(ref Meter m, string s, int width);

    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_ticks")]
    public static extern ref int Ticks(ref Meter m);
}

static class PairAccess<T>
{
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "SwapAsync")]
    public static extern ValueTask<T> Swap(ref Pair<T> p);
}

sealed class Holder
{
    public Meter M = new("field");
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Scenario()
    {
        var m = new Meter("local");
        int a = await Access.Tick(ref m, 2);
        Access.Ticks(ref m) += 100;
        int b = await Access.Tick(ref m, 3);
        var arr = new[] { new Meter("arr0"), new Meter("arr1") };
        int c = await Access.Tick(ref arr[1], 5);
        var h = new Holder();
        var t = Access.Tick(ref h.M, 7);
        Access.Ticks(ref h.M) = 1;
        int d = await t;
        string label = await Access.Label(ref m, "x", 4);
        var p = new Pair<string>("l", "r");
        string swapped = await PairAccess<string>.Swap(ref p);
        var q = new Pair<int>(1, 2);
        int qs = await PairAccess<int>.Swap(ref q);
        return $"{a} {b} {m} {c} {arr[1]} {d} {h.M} {label} {swapped} {p} {qs} {q}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Scenario());
        }
    }
}
