// Large structs as parameters, locals and results of async methods of structs: a struct of sixteen
// fields (references and values mixed) passed by value, modified and returned across suspensions;
// nullable structs; and struct fields holding other structs, so continuations copy whole values.
using System;
using System.Threading.Tasks;

struct Big
{
    public long A, B, C, D;
    public double E, F;
    public string G, H;
    public decimal I;
    public Guid J;
    public int K, L, M, N;
    public object O;
    public (int, string) P;

    public readonly long Sum => A + B + C + D + (long)E + (long)F + (long)I + K + L + M + N + P.Item1;

    public async Task<Big> Bumped(Big other)
    {
        var copy = this;
        await Program.Pause();
        copy.A += other.A;
        copy.G += other.G;
        await Program.Pause();
        copy.P = (copy.P.Item1 + other.P.Item1, copy.P.Item2 + other.P.Item2);
        return copy;
    }
}

struct Wrapper
{
    public Big Inner;
    public int? Maybe;

    public async Task<long> Total(int? extra)
    {
        long before = Inner.Sum;
        await Program.Pause();
        var bumped = await Inner.Bumped(Inner);
        return before + bumped.Sum + (Maybe ?? -1) + (extra ?? -2);
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static Big Make(int seed) => new Big
    {
        A = seed, B = seed * 2, C = seed * 3, D = seed * 4, E = 1.5, F = 2.5, G = "g" + seed, H = "h",
        I = 10.25m, J = new Guid(seed, 0, 0, new byte[8]), K = 1, L = 2, M = 3, N = 4, O = seed, P = (seed, "p"),
    };

    static async Task<Big?> MaybeBig(bool present)
    {
        await Pause();
        return present ? Make(9) : null;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var big = Make(1);
            var bumped = await big.Bumped(Make(2));
            Console.WriteLine($"{bumped.A} {bumped.G} {bumped.P} {bumped.J} {bumped.Sum} original {big.A} {big.G}");
            var w = new Wrapper { Inner = Make(3), Maybe = 7 };
            Console.WriteLine($"{await w.Total(5)} {await w.Total(null)} {await new Wrapper { Inner = Make(4) }.Total(1)}");
            var some = await MaybeBig(true);
            var none = await MaybeBig(false);
            Console.WriteLine($"{some?.Sum} {none.HasValue}");
        }
    }
}
