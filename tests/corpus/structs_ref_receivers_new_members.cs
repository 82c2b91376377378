// Struct receivers that C# 14 members update in place around awaits, where the receiver is a local
// or parameter that must keep its identity across the suspension: extension(ref S s) blocks whose
// properties are assigned and compound-assigned (s.P += await F()) and whose methods take awaited
// arguments, on locals and on array elements; user-defined compound assignment and decrement
// operators with checked variants (operator checked +=, operator checked --) in checked and unchecked
// contexts with awaited operands, overflow caught; null-conditional assignment t?.P = await F()
// through an unconstrained T : IBox with struct and class type arguments (a struct is updated in
// place) and on T array elements; partial properties with field-backed setters in a struct; and a
// lambda with ref readonly and scoped parameter modifiers but no parameter types.
using System;
using System.Threading.Tasks;

struct Cnt { public int N; }
static class Ext
{
    extension(ref Cnt c)
    {
        public int Twice { get => c.N * 2; set => c.N = value / 2; }
        public void Add(int k) => c.N += k;
    }
}

struct Meter
{
    public byte V;
    public void operator +=(int x) { V = unchecked((byte)(V + x)); }
    public void operator checked +=(int x) { V = checked((byte)(V + x)); }
    public void operator --() { V--; }
    public void operator checked --() { V = checked((byte)(V - 1)); }
}

interface IBox { int Value { get; set; } string? Name { get; set; } }
struct SBox : IBox { public int Value { get; set; } public string? Name { get; set; } public override string ToString() => $"S{Value}/{Name}"; }
sealed class CBox : IBox { public int Value { get; set; } public string? Name { get; set; } public override string ToString() => $"C{Value}/{Name}"; }

partial struct Scaled { public partial int P { get; set; } }
partial struct Scaled { public partial int P { get => field; set => field = value * 10; } }

delegate int RoFn(ref readonly int x, scoped ReadOnlySpan<int> s);

static class Program
{
    static bool s_suspend;
    static async Task<int> Val(int x) { if (s_suspend) await Task.Yield(); return x; }
    static async Task<string> Str(string x) { if (s_suspend) await Task.Delay(1); return x; }

    static async Task<string> RefExtensions()
    {
        var c = new Cnt { N = 1 };
        c.Twice += await Val(10);
        c.Add(await Val(3));
        c.Twice *= await Val(2);
        var arr = new Cnt[2];
        arr[1].Twice = await Val(8);
        arr[0].Add(await Val(5));
        int seen = c.Twice + arr[0].Twice;
        return $"{c.N} {arr[0].N},{arr[1].N} {seen}";
    }

    static async Task<string> CheckedCompound()
    {
        var m = new Meter { V = 250 };
        m += await Val(10);
        string ov;
        try { checked { m += await Val(252); } ov = "no"; } catch (OverflowException) { ov = "yes"; }
        checked { m += await Val(1); }
        unchecked { m += await Val(300); }
        var z = new Meter();
        z--;
        string ov2;
        try { checked { z = new Meter { V = (byte)await Val(0) }; z--; } ov2 = "no"; } catch (OverflowException) { ov2 = "yes"; }
        return $"{m.V} {ov} {z.V} {ov2}";
    }

    static async Task<string> Cond<T>(T t, T[] arr) where T : IBox
    {
        t?.Value = await Val(5);
        t?.Name = await Str("n");
        arr[0]?.Value = await Val(7);
        arr[await Val(0)]?.Name = await Str("a");
        return $"{t?.ToString() ?? "null"} {arr[0]?.ToString() ?? "null"}";
    }

    static async Task<string> Misc()
    {
        RoFn f = (ref readonly x, scoped s) => x + s.Length;
        int val = await Val(5);
        int r = f(in val, [1, 2]);
        var ps = new Scaled();
        ps.P = await Val(4);
        ps.P += await Val(1);
        return $"{r} {ps.P}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine($"  ref extensions: {await RefExtensions()}");
            Console.WriteLine($"  checked compound: {await CheckedCompound()}");
            Console.WriteLine($"  conditional: {await Cond(new SBox(), new[] { new SBox() })} | {await Cond(new CBox(), new[] { new CBox() })} | {await Cond<CBox>(null!, new CBox[1])}");
            Console.WriteLine($"  misc: {await Misc()}");
        }
    }
}
