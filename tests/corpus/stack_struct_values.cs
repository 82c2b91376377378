// struct, nullable, long, double and decimal values sitting on the evaluation stack under an await:
// large structs returned by async methods and passed as arguments next to awaited ones, nullable
// arithmetic, DateTime/TimeSpan operators, tuple construction, and struct constructor arguments.
using System;
using System.Threading.Tasks;

struct Big
{
    public long A, B, C, D;
    public decimal M;
    public string S;
    public Big(long a, long b, long c, long d, decimal m, string s) { A = a; B = b; C = c; D = d; M = m; S = s; }
    public static Big operator +(Big x, Big y) => new Big(x.A + y.A, x.B + y.B, x.C + y.C, x.D + y.D, x.M + y.M, x.S + y.S);
    public override string ToString() => $"Big({A},{B},{C},{D},{M},{S})";
}

static class Program
{
    static bool Suspend;

    static async Task<Big> MakeBig(long seed)
    {
        if (Suspend) await Task.Yield();
        return new Big(seed, seed * 2, seed * 3, seed * 4, seed / 4m, "s" + seed);
    }

    static async Task<int?> N(int? v)
    {
        if (Suspend) await Task.Delay(1);
        return v;
    }

    static async Task<TimeSpan> Span(int minutes)
    {
        if (Suspend) await Task.Yield();
        return TimeSpan.FromMinutes(minutes);
    }

    static async ValueTask<double> D(double v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static string Combine(Big x, long l, Big y, double d, decimal m) => $"{x} {l} {y} {d} {m}";

    static async Task<string> Structs()
    {
        var local = new Big(1, 1, 1, 1, 1m, "l");
        string s = Combine(local, 5L, await MakeBig(2), await D(0.5), 2.5m);
        Big sum = local + await MakeBig(3) + await MakeBig(4);
        var t = (local.A, await MakeBig(5), await D(1.25), 7m);
        var constructed = new Big(await N(1) ?? 0, local.B, (long)await D(3.9), 4, await N(null) ?? 9, "c");
        return $"{s} | {sum} | {t.Item1} {t.Item2.S} {t.Item3} {t.Item4} | {constructed}";
    }

    static async Task<string> Nullables()
    {
        int? a = 5;
        int? r1 = a + await N(3);
        int? r2 = a * await N(null);
        bool? eq = a == await N(5);
        long? wide = (long?)await N(7) * 1_000_000_000_000;
        return $"{r1} {(r2 is null ? "null" : r2.ToString())} {eq} {wide}";
    }

    static async Task<string> Times()
    {
        var start = new DateTime(2021, 3, 4, 5, 6, 7);
        DateTime end = start + await Span(90);
        TimeSpan span = end - start + await Span(1);
        bool later = start.AddHours(1) < start + await Span(61);
        return $"{end:yyyy-MM-dd HH:mm:ss} {span} {later}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Structs());
            Console.WriteLine(await Nullables());
            Console.WriteLine(await Times());
        }
    }
}
