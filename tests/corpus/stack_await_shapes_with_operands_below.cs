// Every way an await reaches the rewriter (a direct call, a virtual or interface entry, a constrained
// call through a type parameter, a Task or ValueTask bridge, a ConfigureAwait form with a constant, a
// computed bool or ConfigureAwaitOptions, a task chosen by a conditional, await await, a custom
// awaiter) with values of many stack types already pushed below it: int, long, double, float,
// decimal, a large struct, a string, a nullable, a boxed struct and a closure's field, in the
// middle of argument lists and arithmetic, so the spilled operands must come back in order and
// unchanged around each shape, completed and suspended.
using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

struct Wide
{
    public long A; public decimal B; public string C; public double D;
    public override string ToString() => $"<{A},{B},{C},{D}>";
}

interface ISource { Task<int> Next(int seed); ValueTask<long> NextWide(long seed); }

class BaseSource : ISource
{
    public virtual async Task<int> Next(int seed) { if (Program.Suspend) await Task.Yield(); return seed + 1; }
    public async ValueTask<long> NextWide(long seed) { if (Program.Suspend) await Task.Yield(); return seed * 3; }
}

sealed class DerivedSource : BaseSource
{
    public override async Task<int> Next(int seed) => 100 + await base.Next(seed);
}

struct StructSource : ISource
{
    public int Bias;
    public async Task<int> Next(int seed) { if (Program.Suspend) await Task.Yield(); return seed + Bias; }
    public ValueTask<long> NextWide(long seed) => new(seed - Bias);
}

readonly struct Later
{
    private readonly int _value; private readonly bool _pending;
    public Later(int value, bool pending) { _value = value; _pending = pending; }
    public LaterAwaiter GetAwaiter() => new(_value, _pending);
}

readonly struct LaterAwaiter : ICriticalNotifyCompletion
{
    private readonly int _value; private readonly bool _pending;
    public LaterAwaiter(int value, bool pending) { _value = value; _pending = pending; }
    public bool IsCompleted => !_pending;
    public void OnCompleted(Action continuation) => Task.Run(continuation);
    public void UnsafeOnCompleted(Action continuation) => Task.Run(continuation);
    public int GetResult() => _value;
}

static class Program
{
    public static bool Suspend;

    static async Task<int> I(int v) { if (Suspend) await Task.Yield(); return v; }
    static async ValueTask<int> VI(int v) { if (Suspend) await Task.Delay(1); return v; }
    static async Task<Task<int>> Nested(int v) { if (Suspend) await Task.Yield(); return I(v * 2); }
    static Task<int> NotAsync(int v) => Suspend ? Task.Run(() => v) : Task.FromResult(v);

    static string Show(int a, long b, double c, float d, decimal e, Wide w, string s, int? n, object o, int last)
        => $"{a}|{b}|{c}|{d}|{e}|{w}|{s}|{n?.ToString() ?? "null"}|{o}|{last}";

    static Wide MakeWide(int k) => new Wide { A = k, B = k + 0.5m, C = "w" + k, D = k / 4.0 };

    static async Task<string> Shapes(ISource iface, BaseSource virt, bool flag)
    {
        int a = 1; long b = 1L << 40; double c = 0.1; float d = 1.1f; decimal e = 7.25m;
        int? n = flag ? 5 : null; object o = new Wide { A = 9 };
        var rows = new string[12];
        rows[0] = Show(a, b, c, d, e, MakeWide(1), "s", n, o, await I(10));
        rows[1] = Show(a + 1, b - await I(1), c * await VI(2), d + await iface.Next(1), e / await virt.Next(3), MakeWide(await NotAsync(2)), "t" + await iface.NextWide(5), n + await I(1), o, 0);
        rows[2] = Show(a, b, c, d, e, MakeWide(2), "u", n, o, await I(11).ConfigureAwait(false) + await VI(12).ConfigureAwait(true));
        rows[3] = Show(a, b, c, d, e, MakeWide(3), "v", n, o, await I(13).ConfigureAwait(flag) + await VI(14).ConfigureAwait(!flag));
        rows[4] = Show(a, b, c, d, e, MakeWide(4), "w", n, o, await I(15).ConfigureAwait(ConfigureAwaitOptions.ForceYielding));
        rows[5] = Show(a, b, c, d, e, MakeWide(5), "x", n, o, await (flag ? I(16) : NotAsync(17)) + await (flag ? VI(18) : new ValueTask<int>(19)));
        rows[6] = Show(a, b, c, d, e, MakeWide(6), "y", n, o, await await Nested(20) + await await Nested(21).ConfigureAwait(false));
        rows[7] = Show(a, b, c, d, e, MakeWide(7), "z", n, o, await new Later(22, Suspend) * 2 + await new Later(23, false));
        rows[8] = Show(a, b, c, d, e, MakeWide(8), await iface.Next(24) + "", n, await virt.Next(25), (int)await iface.NextWide(26));
        rows[9] = await Generic(iface, a, MakeWide(9)) + "/" + await Generic(new StructSource { Bias = 7 }, a, MakeWide(10));
        Func<int> capture = () => a;
        a += await I(30) + (int)await iface.NextWide(2);
        rows[10] = Show(capture(), b += await I(1), c -= await VI(1), d *= await I(2), e %= await I(4), MakeWide(a), string.Concat("p", await I(31).ConfigureAwait(false), "q"), n ??= await I(32), o, a);
        rows[11] = Show(checked(a * await I(2)), unchecked((int)b * await I(3)), Math.Max(c, await VI(5)), MathF.Min(d, await I(-1)), decimal.Round(e, await I(1)), MakeWide(await I(12)), nameof(Shapes) + await I(0), typeof(int?).Name.Length + await I(1), await I(33), a);
        return string.Join("\n    ", rows);
    }

    static async Task<string> Generic<T>(T source, int a, Wide w) where T : ISource
    {
        long b = 3;
        string r1 = Show(a, b, 0.5, 0.25f, 1m, w, "g", null, source.GetType().Name, await source.Next(40));
        string r2 = Show(a + await source.Next(41), b * await source.NextWide(42), 0, 0, 0, w, "h", a, w, await source.Next(await source.Next(43)));
        return r1 + " ; " + r2;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine("  base/true:\n    " + await Shapes(new BaseSource(), new BaseSource(), true));
            Console.WriteLine("  derived/false:\n    " + await Shapes(new DerivedSource(), new DerivedSource(), false));
            Console.WriteLine("  struct iface/true:\n    " + await Shapes(new StructSource { Bias = 3 }, new DerivedSource(), true));
        }
    }
}
