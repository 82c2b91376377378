// Values of less common types live across awaits, as locals, arguments, results and fields of
// structs: Int128 and UInt128 (16-byte aligned on x64), Half, decimal, nint/nuint, char and bool,
// enums over sbyte, ushort, long and ulong (with flags beyond 32 bits), Vector128/Vector256,
// nullable Int128 and nullable enums, a 12-element ValueTuple (nested through TRest), a struct
// mixing an Int128 with a byte and references, and a generic struct instantiated over a reference
// type, a value type and Int128. Then checked arithmetic after an await on each of them: Int128 and
// nint overflow, decimal overflow, integer division by zero, checked narrowing conversions, and
// unchecked wrap-around of the same values.
using System;
using System.Collections.Generic;
using System.Numerics;
using System.Runtime.Intrinsics;
using System.Threading.Tasks;

enum Tiny : sbyte { Low = -128, Mid = 0, High = 127 }
enum Port : ushort { Http = 80, Alt = 65535 }
[Flags] enum Wide : long { None = 0, Bit0 = 1, Bit40 = 1L << 40, Bit62 = 1L << 62, Sign = long.MinValue }
enum Huge : ulong { Max = ulong.MaxValue, Half = 1UL << 63 }

struct Mixed
{
    public byte Tag;
    public Int128 Big;
    public string? Name;
    public Half H;
    public object? Box;
    public override string ToString() => $"Mixed({Tag},{Big},{Name},{H},{Box})";
}

struct Pair<T>
{
    public T First;
    public T Second;
    public int Count;
    public Pair(T a, T b) { First = a; Second = b; Count = 2; }
    public async Task<Pair<T>> SwapAsync()
    {
        var first = First;
        await Program.Tick();
        return new Pair<T>(Second, first) { Count = Count + 1 };
    }
    public override string ToString() => $"<{First},{Second},{Count}>";
}

static class Program
{
    static bool s_suspend;

    public static async Task Tick()
    {
        if (s_suspend) await Task.Yield();
    }

    static async Task<T> Val<T>(T v) { await Tick(); return v; }
    static async ValueTask<UInt128> UBig(UInt128 v) { await Tick(); return v * 3; }

    static async Task<Int128> Sum(Int128 a, Int128 b, byte pad, Int128 c)
    {
        Int128 local = a + b;
        await Tick();
        local += c;
        await Tick();
        return local + pad;
    }

    static async Task<string> Locals()
    {
        Int128 i128 = Int128.MaxValue - 5;
        UInt128 u128 = UInt128.MaxValue / 7;
        Half h = (Half)1.5f;
        decimal m = 79228162514264337593543950335m / 3;
        nint ni = nint.MinValue + 1;
        nuint nu = nuint.MaxValue - 2;
        char c = '\u20AC';
        bool flag = true;
        Tiny tiny = Tiny.Low;
        Port port = Port.Alt;
        Wide wide = Wide.Bit40 | Wide.Sign;
        Huge huge = Huge.Max;
        Int128? maybeBig = null;
        Wide? maybeWide = Wide.Bit62;
        Vector128<int> v128 = Vector128.Create(1, 2, 3, 4);
        Vector256<long> v256 = Vector256.Create(10L, 20L, 30L, 40L);
        var tuple = (1, 2L, "three", 4.0, '5', (byte)6, 7m, (short)8, Int128.One, true, Tiny.High, (Half)12);
        await Tick();
        i128 += await Val<Int128>(2);
        u128 = u128 * 2 + await UBig(1);
        h = (Half)((float)h + (float)await Val((Half)0.25f));
        m += await Val(0.5m);
        ni += await Val<nint>(1);
        nu -= await Val<nuint>(1);
        c = (char)(c + await Val(1));
        flag ^= await Val(true);
        tiny = (Tiny)((sbyte)tiny + await Val<sbyte>(1));
        port = (Port)((ushort)port - await Val(1));
        wide |= await Val(Wide.Bit0);
        huge ^= await Val(Huge.Half);
        maybeBig ??= await Val<Int128>(Int128.MinValue);
        maybeWide = maybeWide | await Val<Wide?>(Wide.Bit0);
        v128 += await Val(Vector128.Create(10));
        v256 *= await Val(Vector256.Create(2L));
        tuple.Item9 += await Val<Int128>(41);
        tuple.Item12 = (Half)((float)tuple.Item12 + await Val(0.5f));
        tuple.Item3 += await Val("!");
        var t2 = await Val(tuple);
        return $"{i128} {u128} {h} {m} {ni} {nu} {(int)c:X} {flag} {tiny} {port} {wide} {huge} {maybeBig} {maybeWide}\n  {v128} {v256}\n  {t2} rest={t2.Rest}";
    }

    static async Task<string> Structs()
    {
        var mixed = new Mixed { Tag = 7, Big = Int128.MinValue + 1, Name = "m", H = Half.MaxValue, Box = (Int128)5 };
        await Tick();
        mixed.Big -= await Val<Int128>(1);
        mixed.Tag += await Val<byte>(1);
        var copy = await Val(mixed);
        copy.Name = "copy";
        var sum = await Sum(Int128.MaxValue / 2, Int128.MaxValue / 2, 1, await Val<Int128>(-100));
        var ps = await new Pair<string>("a", "b").SwapAsync();
        var pi = await new Pair<int>(1, 2).SwapAsync();
        var pb = await new Pair<Int128>(Int128.MaxValue, Int128.MinValue).SwapAsync();
        var pd = await (await new Pair<decimal>(1.1m, 2.2m).SwapAsync()).SwapAsync();
        return $"{mixed} {copy} sum={sum}\n  {ps} {pi} {pb} {pd}";
    }

    static async Task<string> Attempt<T>(string what, Func<Task<T>> body)
    {
        try { return $"{what} = {await body()}"; }
        catch (Exception e) { return $"{what} threw {e.GetType().Name}: {e.Message}"; }
    }

    static async Task<string> Checked()
    {
        var lines = new List<string>
        {
            await Attempt("checked Int128 max+1", async () => { Int128 x = Int128.MaxValue; return checked(x + await Val<Int128>(1)); }),
            await Attempt("unchecked Int128 max+1", async () => { Int128 x = Int128.MaxValue; return unchecked(x + await Val<Int128>(1)); }),
            await Attempt("checked UInt128 0-1", async () => { UInt128 x = 0; return checked(x - await Val<UInt128>(1)); }),
            await Attempt("checked (long)Int128", async () => { Int128 x = await Val(Int128.MaxValue); return checked((long)x); }),
            await Attempt("unchecked (long)Int128", async () => { Int128 x = await Val(Int128.MaxValue); return unchecked((long)x); }),
            await Attempt("Int128 / 0", async () => { Int128 x = 10; return x / await Val(Int128.Zero); }),
            await Attempt("Int128 % 0", async () => { UInt128 x = 10; return x % await Val(UInt128.Zero); }),
            await Attempt("int / 0", async () => { int x = 10; return x / await Val(0); }),
            await Attempt("int.MinValue / -1", async () => { int x = int.MinValue; return x / await Val(-1); }),
            await Attempt("long % 0 checked", async () => { long x = 10; return checked(x % await Val(0L)); }),
            await Attempt("checked nint", async () => { nint x = nint.MaxValue; return checked(x + await Val<nint>(1)); }),
            await Attempt("checked nuint", async () => { nuint x = 0; return checked(x - await Val<nuint>(1)); }),
            await Attempt("decimal max*2", async () => { decimal x = decimal.MaxValue; return x * await Val(2m); }),
            await Attempt("decimal / 0", async () => { decimal x = 1; return x / await Val(0m); }),
            await Attempt("checked (byte)int", async () => { int x = 300; return checked((byte)(x + await Val(0))); }),
            await Attempt("checked (sbyte enum)", async () => { int x = 200; return checked((Tiny)(x + await Val(0))); }),
            await Attempt("checked (int)double", async () => { double x = 3e10; return checked((int)(x + await Val(0.0))); }),
            await Attempt("checked (int)Half", async () => { Half x = Half.PositiveInfinity; return checked((int)((float)x + await Val(0f))); }),
            await Attempt("checked ulong*", async () => { ulong x = ulong.MaxValue / 2; return checked(x * await Val(3UL)); }),
            await Attempt("BigInteger / 0", async () => { BigInteger x = BigInteger.Pow(10, 30); return x / await Val(BigInteger.Zero); }),
        };
        return string.Join("\n  ", lines);
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine($"  {await Locals()}");
            Console.WriteLine($"  {await Structs()}");
            Console.WriteLine($"  {await Checked()}");
        }
    }
}
