// awaits in arguments next to by-reference arguments and receivers: Interlocked calls with `ref`
// to a static field, an instance field and an array element beside an awaited value, `out`
// arguments after an await, methods called on struct results of awaits, params arrays holding awaits.
using System;
using System.Threading;
using System.Threading.Tasks;

struct Counter
{
    public int Value;
    public int AddAndGet(int v) { Value += v; return Value; }
    public readonly string Show(string prefix) => prefix + Value;
}

sealed class Holder
{
    public int Field;
    public long Wide;
    public Counter Counter;
}

static class Program
{
    static bool Suspend;
    static int StaticField;

    static async Task<int> I(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<Counter> MakeCounter(int v)
    {
        if (Suspend) await Task.Delay(1);
        return new Counter { Value = v };
    }

    static bool TryParse(string s, int extra, out int value)
    {
        bool ok = int.TryParse(s, out value);
        value += extra;
        return ok;
    }

    static void Swap(ref int a, ref int b, int bonus)
    {
        (a, b) = (b + bonus, a + bonus);
    }

    static async Task<string> Interlocks()
    {
        StaticField = 1;
        var h = new Holder();
        var arr = new[] { 5, 6 };
        int r1 = Interlocked.Add(ref StaticField, await I(10));
        int r2 = Interlocked.Exchange(ref h.Field, await I(7));
        long r3 = Interlocked.Add(ref h.Wide, await I(3) * 1_000_000_000L);
        int r4 = Interlocked.CompareExchange(ref arr[1], await I(60), 6);
        return $"{r1} {StaticField} {r2} {h.Field} {r3} {r4} {arr[1]}";
    }

    static async Task<string> Outs()
    {
        bool ok = TryParse(await I(12).ContinueWith(t => t.Result.ToString()), await I(1), out int parsed);
        int x = 1, y = 2;
        Swap(ref x, ref y, await I(100));
        var h = new Holder { Field = 3 };
        Swap(ref h.Field, ref StaticField, await I(1));
        return $"{ok} {parsed} {x} {y} {h.Field} {StaticField}";
    }

    static async Task<string> StructReceivers()
    {
        int a = (await MakeCounter(5)).AddAndGet(await I(2));
        string b = (await MakeCounter(9)).Show(await I(1) + ":");
        var h = new Holder();
        int c = h.Counter.AddAndGet(await I(4));
        c += h.Counter.AddAndGet(await I(4));
        return $"{a} {b} {c} {h.Counter.Value}";
    }

    static async Task<string> Params()
    {
        string f = string.Format("{0}-{1}-{2}-{3}", 1, await I(2), "three", await I(4));
        string g = string.Concat("a", await I(5).ContinueWith(t => t.Result.ToString()), "c", "d", await MakeCounter(7).ContinueWith(t => t.Result.Show("e")));
        return f + " " + g;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Interlocks());
            Console.WriteLine(await Outs());
            Console.WriteLine(await StructReceivers());
            Console.WriteLine(await Params());
        }
    }
}
