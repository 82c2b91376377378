// Awaits in the middle of expressions whose earlier operands have logged side effects and
// are of many stack types: volatile fields (float, byte, bool, enum, reference), calls with many
// mixed arguments (decimal, Int128, nullable large struct, enum, generic T over class and struct),
// chained assignments x = a[i] = obj.F = await V(), tuple swaps, string.Concat of many awaited
// parts of mixed types, lifted nullable user-defined operators and comparisons, checked user
// operators overflowing after an await, Interlocked with awaited arguments, conditional indices.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

enum Mode : short { Off = -1, On = 7, Max = short.MaxValue }
[Flags] enum Bits : ulong { None = 0, Low = 1, High = 1UL << 63 }

struct Big
{
    public long A; public decimal B; public string C; public Int128 D; public Guid E;
    public Big(long a, decimal b, string c, Int128 d) { A = a; B = b; C = c; D = d; E = new Guid(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11); }
    public override string ToString() => $"Big({A},{B},{C},{D},{E.ToString()[..4]})";
}

readonly struct Money
{
    public readonly decimal Amount;
    public Money(decimal a) { Amount = a; }
    public static Money operator +(Money x, Money y) { Program.Log($"op+({x.Amount},{y.Amount})"); return new Money(x.Amount + y.Amount); }
    public static Money operator -(Money x) { Program.Log($"op-({x.Amount})"); return new Money(-x.Amount); }
    public static bool operator <(Money x, Money y) { Program.Log($"op<({x.Amount},{y.Amount})"); return x.Amount < y.Amount; }
    public static bool operator >(Money x, Money y) { Program.Log($"op>({x.Amount},{y.Amount})"); return x.Amount > y.Amount; }
    public static bool operator ==(Money x, Money y) { Program.Log($"op==({x.Amount},{y.Amount})"); return x.Amount == y.Amount; }
    public static bool operator !=(Money x, Money y) => !(x == y);
    public override bool Equals(object? o) => o is Money m && m.Amount == Amount;
    public override int GetHashCode() => 0;
    public override string ToString() => $"${Amount}";
}

readonly struct Small
{
    public readonly byte V;
    public Small(byte v) { V = v; }
    public static Small operator +(Small a, Small b) => new Small(unchecked((byte)(a.V + b.V)));
    public static Small operator checked +(Small a, Small b) => new Small(checked((byte)(a.V + b.V)));
    public override string ToString() => $"s{V}";
}

sealed class Sink
{
    public int F;
    public long L;
    public string? S;
    public int[] Arr = new int[4];
    public int P { get => Program.LogRet("getP", _p); set { Program.Log($"setP={value}"); _p = value; } }
    int _p;
}

static class Program
{
    static bool Suspend;
    static readonly List<string> log = new();
    public static void Log(string s) => log.Add(s);
    public static T LogRet<T>(string what, T v) { log.Add($"{what}->{v}"); return v; }

    static volatile float s_vf = 1.5f;
    static volatile byte s_vb = 250;
    static volatile bool s_vbool = true;
    static volatile Mode s_vmode = Mode.On;
    static volatile string s_vs = "vol";
    static int s_counter;
    static long s_long;

    static async Task<T> V<T>(string tag, T v)
    {
        Log($"await {tag} start");
        if (Suspend) await Task.Yield();
        Log($"await {tag} end");
        return v;
    }

    static async ValueTask<int> I(int v)
    {
        if (Suspend) await Task.Yield();
        Log($"I({v})");
        return v;
    }

    static string Many(int a, decimal b, Int128 c, Big? d, Mode e, long f, Bits g, float h, double i, string j, char k, object? l, Big m, byte n)
        => $"{a}|{b}|{c}|{d?.ToString() ?? "null"}|{e}|{f}|{g}|{h}|{i}|{j}|{k}|{l ?? "nil"}|{m}|{n}";

    static string Generic<T>(T first, T second, int mid, T third) => $"<{first},{second},{mid},{third}>";

    static async Task<string> GenericCaller<T>(T a, T b)
    {
        var s = Generic(LogRet("ga", a), await V("gb", b), LogRet("mid", 5), await V("gc", a));
        T[] arr = { a, b };
        arr[LogRet("idx", 1)] = await V("gset", a);
        (arr[0], arr[1]) = (await V("sw1", arr[1]), await V("sw0", arr[0]));
        return s + $" [{arr[0]},{arr[1]}]";
    }

    static async Task<string> Volatiles()
    {
        float f = s_vf * await V("vf", 2f) + s_vf;
        int b = s_vb + await V("vb", 10);
        byte bb = unchecked((byte)(s_vb + await V("vbb", 10)));
        bool bo = s_vbool & await V("vbool", true) | !s_vbool;
        Mode m = s_vmode | await V("vmode", Mode.Off);
        string s = s_vs + await V("vs", "!") + s_vs;
        s_vf = s_vf + await V("vf2", 0.25f);
        return $"{f} {b} {bb} {bo} {m} {s} {s_vf}";
    }

    static async Task<string> ManyArgs()
    {
        var big = new Big(1, 2.5m, "c", (Int128)long.MaxValue * 4);
        Big? nb = null;
        int x = 0;
        string r = Many(
            LogRet("a", ++x),
            await V("b", 1.000m) * LogRet("bb", 3m),
            LogRet("c", (Int128)ulong.MaxValue) + await V("c2", (Int128)1),
            x > 0 ? LogRet("d", (Big?)big) : nb,
            await V("e", Mode.Max),
            LogRet("f", long.MinValue) + await V("f2", 1L),
            LogRet("g", Bits.High) | await V("g2", Bits.Low),
            LogRet("h", 0.1f) + await V("h2", 0.2f),
            LogRet("i", 0.1) + await V("i2", 0.2),
            LogRet("j", "jj") + await V("j2", 'x'),
            await V("k", 'k'),
            x > 5 ? "boxed" : null,
            await V("m", big),
            LogRet("n", (byte)200));
        return r;
    }

    static async Task<string> Chains()
    {
        var sink = new Sink();
        int i = 0;
        int x;
        x = sink.Arr[LogRet("i", i++)] = sink.F = await V("chain", 42);
        sink.P = sink.Arr[LogRet("i2", i)] = await V("chain2", 7);
        sink.L = sink.F = await V("chain3", 9);
        sink.S ??= (await V("s", 3)).ToString() + sink.P;
        sink.P += sink.P * await V("pp", 2);
        int a = 1, b = 2, c = 3;
        (a, b, c) = (await V("t1", b), c, await V("t3", a));
        (a, b) = (b, a);
        return $"{x} {sink.F} {sink.L} {sink.S} {sink.P} [{string.Join(",", sink.Arr)}] {a}{b}{c}";
    }

    static async Task<string> Concats()
    {
        object? nothing = null;
        string s1 = LogRet("p0", "a") + await V("p1", 1) + 'c' + await V("p3", nothing) + LogRet("p4", 2.5) + await V("p5", "e") + await V("p6", Mode.On) + LogRet("p7", "z");
        string s2 = string.Concat(await V("q1", "x"), LogRet("q2", "y"), await V("q3", "z"), LogRet("q4", "w"), await V("q5", "v"), "u");
        return s1 + "/" + s2;
    }

    static async Task<string> Lifted()
    {
        Money? m1 = new Money(5), m0 = null;
        Money? r1 = m1 + await V("lm", (Money?)new Money(3));
        Money? r2 = m0 + await V("lm0", (Money?)new Money(3));
        Money? r3 = m1 + await V("lmn", (Money?)null);
        bool c1 = m1 < await V("lc", (Money?)new Money(9));
        bool c2 = m0 < await V("lc0", (Money?)new Money(9));
        bool c3 = m1 == await V("leq", (Money?)new Money(5));
        bool c4 = m0 == await V("leqn", (Money?)null);
        Money? r4 = -(await V("neg", m1));
        int? n1 = 5;
        int? n2 = n1 * await V("ni", (int?)null) ?? await V("nf", -1);
        long? n3 = n1 << await V("sh", 3);
        return $"{r1} {r2?.ToString() ?? "null"} {r3?.ToString() ?? "null"} {c1} {c2} {c3} {c4} {r4} {n2} {n3}";
    }

    static async Task<string> CheckedOps()
    {
        var s = new Small(200);
        var u = s + await V("u", new Small(100));
        string res = $"u={u}";
        try
        {
            var c = checked(s + await V("c", new Small(100)));
            res += $" c={c}";
        }
        catch (OverflowException) { res += " overflow"; }
        try
        {
            int big = int.MaxValue - 1;
            int r = checked(big + LogRet("one", 1) + await V("two", 2));
            res += $" r={r}";
        }
        catch (OverflowException) { res += " overflow2"; }
        try
        {
            Small? ns = new Small(255);
            var q = checked(ns + await V("nq", (Small?)new Small(1)));
            res += $" q={q}";
        }
        catch (OverflowException) { res += " overflow3"; }
        return res;
    }

    static async Task<string> Interlockeds()
    {
        s_counter = 10;
        int old = Interlocked.Exchange(ref s_counter, await V("ex", 20));
        int cmp = Interlocked.CompareExchange(ref s_counter, await V("ce1", 30), await V("ce2", 20));
        long add = Interlocked.Add(ref s_long, LogRet("la", 5L) + await V("la2", 6L));
        var sink = new Sink();
        int inc = Interlocked.Increment(ref sink.Arr[await V("ai", 2)]);
        return $"{old} {cmp} {s_counter} {add} {inc}";
    }

    static async Task<string> RefConditional()
    {
        int a = 1, b = 2;
        var arr = new[] { 10, 20 };
        bool pick = LogRet("pick", true);
        int v = await V("rc", 99);
        (pick ? ref arr[0] : ref arr[1]) = v;
        arr[pick ? LogRet("ri", 1) : 0] += await V("rc2", 5);
        a = (pick ? a : b) + await V("rc3", 5);
        return $"{a} {b} [{arr[0]},{arr[1]}]";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            s_vf = 1.5f; s_vb = 250; s_vbool = true; s_vmode = Mode.On; s_vs = "vol"; s_long = 0;
            Console.WriteLine($"suspend={suspend}");
            async Task Run(string name, Func<Task<string>> f)
            {
                log.Clear();
                string r;
                try { r = await f(); } catch (Exception e) { r = "threw " + e.GetType().Name; }
                Console.WriteLine($"  {name}: {r}");
                Console.WriteLine($"    log: {string.Join("; ", log)}");
            }
            await Run("volatiles", Volatiles);
            await Run("many", ManyArgs);
            await Run("generic-class", () => GenericCaller("A", "B"));
            await Run("generic-struct", () => GenericCaller(1.5m, 2.5m));
            await Run("generic-big", () => GenericCaller(new Big(1, 1, "x", 1), new Big(2, 2, "y", 2)));
            await Run("chains", Chains);
            await Run("concats", Concats);
            await Run("lifted", Lifted);
            await Run("checked", CheckedOps);
            await Run("interlocked", Interlockeds);
            await Run("refcond", RefConditional);
        }
    }
}
