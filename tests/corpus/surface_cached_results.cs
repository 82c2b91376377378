// Which synchronously completed Task<T> results classic async hands out as cached tasks, for result
// types and values the builder's cache may treat specially: enums, every small integer type, IntPtr,
// floating point zeros of both signs and NaN, decimals whose zero carries a scale (0.0m prints "0.0"),
// default structs, nullable and tuple defaults; and that the cached or fresh task keeps the exact
// value (sign of zero, decimal scale). Also the same through generic methods over these types,
// through async lambdas and local functions, and for ValueTask<T>.AsTask().
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

enum Color { Red, Green, Blue }
enum Big : long { Zero = 0, One = 1 }
struct Point { public int X; public int Y; public override string ToString() => $"({X},{Y})"; }
struct Holder { public string? Name; public override string ToString() => Name ?? "null"; }

static class Program
{
    static bool Suspend;

    static async Task<T> Now<T>(T v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<double> Dbl(double v) => v;
    static async Task<float> Flt(float v) => v;
    static async Task<decimal> Dec(decimal v) => v;
    static async ValueTask<double> DblVT(double v) => v;
    static async ValueTask<decimal> DecVT(decimal v) => v;

    static string Show<T>(T v) => v switch
    {
        double d => d == 0 ? (double.IsNegative(d) ? "-0" : "+0") : double.IsNaN(d) ? $"NaN({BitConverter.DoubleToInt64Bits(d):X})" : d.ToString("R"),
        float f => f == 0 ? (float.IsNegative(f) ? "-0f" : "+0f") : float.IsNaN(f) ? $"NaNf({BitConverter.SingleToInt32Bits(f):X})" : f.ToString("R"),
        decimal m => m.ToString(System.Globalization.CultureInfo.InvariantCulture) + "m",
        null => "null",
        _ => v.ToString() ?? "?",
    };

    static async Task<string> Probe<T>(string name, Func<T, Task<T>> f, T v)
    {
        var a = f(v);
        var b = f(v);
        var same = ReferenceEquals(a, b) ? "S" : "d";
        var r = await a;
        return $"{name}:{same}:{Show(r)}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var lines = new List<string>
            {
                await Probe("enum0", Now, Color.Red), await Probe("enum2", Now, Color.Blue), await Probe("bigenum0", Now, Big.Zero),
                await Probe("byte0", Now, (byte)0), await Probe("byte1", Now, (byte)1), await Probe("sbyte0", Now, (sbyte)0), await Probe("sbyte-1", Now, (sbyte)-1),
                await Probe("short0", Now, (short)0), await Probe("ushort0", Now, (ushort)0), await Probe("uint0", Now, 0u), await Probe("uint1", Now, 1u),
                await Probe("ulong0", Now, 0ul), await Probe("long-1", Now, -1L), await Probe("nint0", Now, (nint)0), await Probe("nuint0", Now, (nuint)0),
                await Probe("int9", Now, 9), await Probe("int8", Now, 8), await Probe("int-1", Now, -1), await Probe("intmin", Now, int.MinValue),
                await Probe("dbl+0", Now, 0.0), await Probe("dbl-0", Now, -0.0), await Probe("dblNaN", Now, double.NaN), await Probe("dbl1", Now, 1.0),
                await Probe("flt+0", Now, 0f), await Probe("flt-0", Now, -0f), await Probe("fltNaN", Now, float.NaN),
                await Probe("dec0", Now, 0m), await Probe("dec0.0", Now, 0.0m), await Probe("dec-0", Now, -0.0m), await Probe("dec1", Now, 1m), await Probe("dec1.00", Now, 1.00m),
                await Probe("Point0", Now, default(Point)), await Probe("Point1", Now, new Point { X = 1 }),
                await Probe("Holder0", Now, default(Holder)), await Probe("DateTime0", Now, default(DateTime)), await Probe("TimeSpan0", Now, TimeSpan.Zero),
                await Probe("tuple0", Now, (0, 0)), await Probe("tupleNull", Now, ((string?)null, 0)), await Probe("kvp0", Now, default(KeyValuePair<int, int>)),
                await Probe("bool?null", Now, (bool?)null), await Probe("bool?true", Now, (bool?)true), await Probe("double?0", Now, (double?)0.0), await Probe("double?-0", Now, (double?)-0.0),
                await Probe("object-null", Now, (object?)null), await Probe("object-boxed0", Now, (object)0), await Probe("string-empty", Now, ""),
                await Probe("char0", Now, '\0'), await Probe("Half0", Now, (Half)0), await Probe("Int128_0", Now, (Int128)0), await Probe("Guid0", Now, Guid.Empty),
            };
            Console.WriteLine(string.Join(" ", lines));
            // Non-generic methods over the tricky values, and lambdas.
            Func<double, Task<double>> lam = async d => d;
            Func<decimal, Task<decimal>> lamDec = async d => { if (Suspend) await Task.Yield(); return d; };
            async Task<double> Local(double d) { if (Suspend) await Task.Yield(); return d; }
            Console.WriteLine(string.Join(" ", new[]
            {
                await Probe("Dbl-0", Dbl, -0.0), await Probe("Dbl+0", Dbl, 0.0), await Probe("Flt-0", Flt, -0f),
                await Probe("Dec0.0", Dec, 0.0m), await Probe("Dec0.000", Dec, 0.000m), await Probe("Dec-0", Dec, -0m),
                await Probe("lam-0", lam, -0.0), await Probe("lamDec0.00", lamDec, 0.00m), await Probe("local-0", Local, -0.0),
            }));
            var vd = DblVT(-0.0);
            var vm = DecVT(0.0m);
            Console.WriteLine($"VT: {Show(await vd)} {Show(await vm)} AsTask same dbl={ReferenceEquals(DblVT(-0.0).AsTask(), DblVT(-0.0).AsTask())} dec={ReferenceEquals(DecVT(0.0m).AsTask(), DecVT(0.0m).AsTask())} "
                + $"AsTask values {Show(DblVT(-0.0).AsTask().Result)} {Show(DecVT(0.0m).AsTask().Result)}");
            // The value seen through the task right after the call, without awaiting.
            var t1 = Dbl(-0.0);
            var t2 = Dec(0.00m);
            Console.WriteLine($"Result: {Show(t1.Result)} {Show(t2.Result)} 1/x={1 / t1.Result}");
        }
    }
}
