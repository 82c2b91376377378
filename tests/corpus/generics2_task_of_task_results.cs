// Results whose type is itself awaitable or unusual, produced after suspending and consumed in
// several ways: Task<Task<int>> and ValueTask<Task<string>> (awaited twice, Unwrap, the inner task
// started before the outer completed), a generic identity Echo<T> instantiated with T = Task<int>,
// ValueTask<int> and Func<Task<int>> (the result is returned, not awaited), Task<object> holding a
// boxed struct and a Task, results that are enums over byte and long, nullable structs (null and
// not), an explicit-layout struct with overlapping fields, a 96-byte struct, and
// Task<KeyValuePair<int, (long, string)>> built in a generic method of a generic class over a struct.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading.Tasks;

enum Small : byte { A = 1, B = 200 }
enum Wide : long { X = 1L << 40, Y = -3 }

[StructLayout(LayoutKind.Explicit)]
struct Overlay
{
    [FieldOffset(0)] public long All;
    [FieldOffset(0)] public int Low;
    [FieldOffset(4)] public int High;
    [FieldOffset(2)] public short Middle;
}

struct Big
{
    public long A, B, C, D, E, F, G, H, I, J, K, L;
    public override string ToString() => $"{A},{B},{C},{D},{E},{F},{G},{H},{I},{J},{K},{L}";
}

struct Pair<T> { public T First; public T Second; public override string ToString() => $"<{First},{Second}>"; }

sealed class Store<TKey> where TKey : struct
{
    public async Task<KeyValuePair<int, (long, string)>> Make<TValue>(TKey key, TValue value) where TValue : struct
    {
        await Program.Pause();
        return new KeyValuePair<int, (long, string)>(key.GetHashCode() & 0xff, ((long)int.MaxValue * 3, $"{key}:{value}"));
    }

    public async Task<Pair<TValue>?> MaybePair<TValue>(TValue v, bool some) where TValue : struct
    {
        await Program.Pause();
        return some ? new Pair<TValue> { First = v, Second = v } : null;
    }
}

static class Program
{
    static bool Suspend;
    static readonly List<string> log = new();

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<int> Inner(int v)
    {
        log.Add("inner start " + v);
        await Pause();
        return v * 2;
    }

    static async Task<Task<int>> Outer(int v)
    {
        var started = Inner(v);
        log.Add("outer started inner");
        await Pause();
        return started;
    }

    static async ValueTask<Task<string>> OuterValue(string s)
    {
        await Pause();
        return Text(s);
    }

    static async Task<string> Text(string s)
    {
        await Pause();
        return s + s;
    }

    static async Task<T> Echo<T>(T value)
    {
        await Pause();
        return value;
    }

    static async Task<object> Boxed(int kind)
    {
        await Pause();
        return kind switch
        {
            0 => 42,
            1 => new Overlay { All = 0x0102030405060708 },
            2 => Inner(7),
            _ => Small.B,
        };
    }

    static async Task<Small> SmallEnum(int i) { await Pause(); return i == 0 ? Small.A : Small.B; }
    static async Task<Wide> WideEnum(int i) { await Pause(); return i == 0 ? Wide.X : Wide.Y; }

    static async Task<int?> MaybeInt(int i)
    {
        await Pause();
        if (i < 0) return null;
        return i;
    }

    static async Task<Overlay> MakeOverlay(int low, int high)
    {
        var o = new Overlay { Low = low };
        await Pause();
        o.High = high;
        await Pause();
        o.Middle = -1;
        return o;
    }

    static async Task<Big> MakeBig(long seed)
    {
        var b = new Big { A = seed };
        await Pause();
        b.L = seed * 12;
        b.F = await Echo(seed * 6);
        return b;
    }

    static async Task<long> SumBig(Big b, Big c)
    {
        await Pause();
        return b.A + b.F + b.L + c.A + c.F + c.L;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            log.Clear();
            Task<int> inner = await Outer(3);
            Console.WriteLine($"await await: {await await Outer(4)}; inner: {await inner}; unwrap: {await Outer(5).Unwrap()}");
            Console.WriteLine("log: " + string.Join(", ", log));
            Console.WriteLine("value of task: " + await await OuterValue("ab"));

            var echoedTask = await Echo(Inner(10));
            var echoedValue = await Echo(new ValueTask<int>(11));
            Func<Task<int>> f = await Echo<Func<Task<int>>>(() => Inner(12));
            Console.WriteLine($"echo task {await echoedTask}, echo valuetask {await echoedValue}, echo func {await f()}");
            Console.WriteLine($"echo struct {await Echo(new Pair<string> { First = "x", Second = "y" })}, echo null {(await Echo<string?>(null)) ?? "null"}");

            for (int k = 0; k < 4; k++)
            {
                object o = await Boxed(k);
                string shown = o switch
                {
                    Task<int> t => "task " + await t,
                    Overlay ov => $"overlay {ov.Low:x} {ov.High:x} {ov.Middle:x}",
                    _ => o.GetType().Name + " " + o,
                };
                Console.WriteLine($"boxed {k}: {shown}");
            }

            Console.WriteLine($"enums {await SmallEnum(0)} {(byte)await SmallEnum(1)} {await WideEnum(0)} {(long)await WideEnum(1)}");
            Console.WriteLine($"nullable {await MaybeInt(5)} [{await MaybeInt(-1)}] {(await MaybeInt(-1)).HasValue} {(await MaybeInt(0) ?? 99)}");
            var ov2 = await MakeOverlay(0x11112222, 0x33334444);
            Console.WriteLine($"overlay {ov2.All:x} {ov2.Low:x} {ov2.High:x} {ov2.Middle}");
            var big = await MakeBig(2);
            Console.WriteLine($"big {big} sum {await SumBig(big, await MakeBig(3))}");

            var store = new Store<int>();
            var kv = await store.Make(5, 2.5);
            Console.WriteLine($"kv {kv.Key} {kv.Value.Item1} {kv.Value.Item2}");
            var kv2 = await new Store<Small>().Make(Small.B, (1, 'c'));
            Console.WriteLine($"kv2 {kv2.Key} {kv2.Value.Item1} {kv2.Value.Item2}");
            Console.WriteLine($"pairs {await store.MaybePair(1.5m, true)} [{await store.MaybePair(Wide.Y, false)}] {(await store.MaybePair(Small.A, true))?.Second}");
        }
    }
}
