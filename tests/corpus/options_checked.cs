// csc: /checked+ /platform:anycpu32bitpreferred /debug- /highentropyva- /filealign:4096 /langversion:13 /nullable:disable /deterministic-
// Whole-program /checked+: arithmetic and conversions around awaits overflow and are caught after
// awaits; unchecked blocks opt out; ++/--, compound assignments, unsigned, conversions, checked user operators.
// Built in a flavour mix besides: anycpu32bitpreferred, no PDB at all, /filealign, LangVersion 13,
// nullable off, a nondeterministic MVID.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

struct Money
{
    public long Cents;
    public Money(long c) { Cents = c; }
    public static Money operator +(Money a, Money b) => new Money(a.Cents + b.Cents);
    public static Money operator checked -(Money a, Money b) => new Money(checked(a.Cents - b.Cents) < 0 ? throw new OverflowException("money negative") : a.Cents - b.Cents);
    public static Money operator -(Money a, Money b) => new Money(a.Cents - b.Cents);
    public override string ToString() => $"{Cents}c";
}

class Acc { public int Total; public byte Small; public uint[] Arr = new uint[2]; public int this[int i] { get => Arr.Length + i; set => Total = value; } }

static class Program
{
    static bool Suspend;
    static async Task<int> I(int v) { if (Suspend) await Task.Yield(); return v; }
    static async Task<long> L(long v) { if (Suspend) await Task.Yield(); return v; }
    static async Task<uint> U(uint v) { if (Suspend) await Task.Yield(); return v; }
    static async ValueTask<double> D(double v) { if (Suspend) await Task.Yield(); return v; }
    static async Task<Money> M(long v) { if (Suspend) await Task.Yield(); return new Money(v); }

    static async Task<string> Try(string name, Func<Task<string>> f)
    {
        try { return $"{name}={await f()}"; }
        catch (OverflowException e) { await I(0); return $"{name}:overflow({e.Message.Length > 0})"; }
        catch (Exception e) { return $"{name}:{e.GetType().Name}"; }
    }

    static async Task<string> Add(int a) { int x = a + await I(1); return x.ToString(); }
    static async Task<string> AddSpill(int a) { int[] arr = { a }; int x = arr[0] * 2 + await I(int.MaxValue / 2); return x.ToString(); }
    static async Task<string> Mul(long a) => (await L(a) * await L(a)).ToString();
    static async Task<string> Incr(int start)
    {
        int i = start;
        for (int k = 0; k < 3; k++) { i++; await I(k); }
        return i.ToString();
    }
    static async Task<string> Compound(int start)
    {
        var acc = new Acc { Total = start };
        acc.Total += await I(5);
        acc.Small += (byte)await I(100);
        acc.Small += (byte)await I(100);
        acc.Arr[1] -= await U(1);
        return $"{acc.Total}/{acc.Small}/{acc.Arr[1]}";
    }
    static async Task<string> Convert1(long v) { int n = (int)await L(v); return n.ToString(); }
    static async Task<string> Convert2(double v) { int n = (int)await D(v); return n.ToString(); }
    static async Task<string> Unsigned(uint a) { uint r = a - await U(5); return r.ToString(); }
    static async Task<string> Unchecked(int a) { int r = unchecked(a + await I(1)); unchecked { r += await I(int.MaxValue); } return r.ToString(); }
    static async Task<string> Neg(int a) { int r = -await I(a); return r.ToString(); }
    static async Task<string> MoneyOps(long a)
    {
        var m = await M(a) + await M(1);
        var n = m - await M(10);
        var u = unchecked(m - await M(10));
        return $"{m} {n} {u}";
    }
    static async Task<string> Indexer(int a)
    {
        var acc = new Acc();
        acc[await I(0)] += a + await I(1);
        return acc.Total.ToString();
    }
    static async Task<string> SizeCalc(int count)
    {
        var parts = new List<int>();
        int total = 0;
        for (int i = 0; i < count; i++)
        {
            int part = await I(1 << 29);
            total += part;
            parts.Add(total);
        }
        return string.Join(",", parts);
    }
    static async Task<string> ArrayNew(long len)
    {
        var a = new byte[await L(len)];
        return a.Length.ToString();
    }
    static async Task<string> Filter(int a)
    {
        try
        {
            return (a + await I(int.MaxValue)).ToString();
        }
        catch (OverflowException) when (a > 0 && a < 100)
        {
            return "filtered-caught";
        }
    }
    static async Task<string> FinallyOverflow(int a)
    {
        string log = "";
        try
        {
            try { log += "t"; await I(1); log += (a * 3).ToString(); }
            finally { log += "f"; log += (await I(a) + 1).ToString(); }
        }
        catch (OverflowException) { log += "!"; }
        return log;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            var lines = new List<string>
            {
                await Try("add", () => Add(5)),
                await Try("addmax", () => Add(int.MaxValue)),
                await Try("spill", () => AddSpill(1)),
                await Try("spillmax", () => AddSpill(int.MaxValue / 2 + 1)),
                await Try("mul", () => Mul(3_000_000_000)),
                await Try("mulok", () => Mul(3_000)),
                await Try("incr", () => Incr(int.MaxValue - 5)),
                await Try("incrmax", () => Incr(int.MaxValue - 1)),
                await Try("compound", () => Compound(1)),
                await Try("conv1", () => Convert1(1L << 40)),
                await Try("conv1ok", () => Convert1(-7)),
                await Try("conv2", () => Convert2(1e20)),
                await Try("conv2ok", () => Convert2(-3.9)),
                await Try("unsigned", () => Unsigned(3)),
                await Try("unsignedok", () => Unsigned(30)),
                await Try("unchecked", () => Unchecked(int.MaxValue)),
                await Try("neg", () => Neg(int.MinValue)),
                await Try("money", () => MoneyOps(long.MaxValue)),
                await Try("money2", () => MoneyOps(3)),
                await Try("money3", () => MoneyOps(100)),
                await Try("indexer", () => Indexer(int.MaxValue - 3)),
                await Try("sizes", () => SizeCalc(3)),
                await Try("sizes4", () => SizeCalc(4)),
                await Try("arr", () => ArrayNew(-1)),
                await Try("arrok", () => ArrayNew(3)),
                await Try("filter", () => Filter(5)),
                await Try("filter2", () => Filter(500)),
                await Try("fin", () => FinallyOverflow(5)),
                await Try("fin2", () => FinallyOverflow(int.MaxValue)),
                await Try("fin3", () => FinallyOverflow(int.MaxValue / 2)),
            };
            foreach (var l in lines) Console.WriteLine("  " + l);
        }
    }
}
