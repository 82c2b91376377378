// awaits with values on the evaluation stack in arithmetic: 1 + await F(), int/long/double/decimal
// operands below the await, compound assignment x += await F(), checked arithmetic that overflows
// after an await, shifts and comparisons whose left operand was pushed before the await.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> I(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<long> L(long v)
    {
        if (Suspend) await Task.Delay(1);
        return v;
    }

    static async Task<double> D(double v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async ValueTask<decimal> M(decimal v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<int> OnePlus() => 1 + await I(41);

    static async Task<int> Chain(int a) => a * 10 + await I(a) * await I(3) - await I(2);

    static async Task<long> Longs(long a)
    {
        long x = a << 33;
        return x + await L(5) * (a - await L(1)) + (await L(1L << 40) >> 3);
    }

    static async Task<double> Doubles(double a) => a / 4 + await D(0.5) * a - Math.Sqrt(await D(16.0));

    static async Task<decimal> Decimals(decimal a) => a * 1.5m + await M(0.25m) - (await M(10m) / 4m);

    static async Task<string> Compound()
    {
        int x = 3;
        x += await I(4);
        x *= await I(2);
        x -= await I(1);
        x <<= await I(2);
        long y = 10;
        y += await L(long.MaxValue / 2);
        double z = 1.5;
        z /= await D(0.5);
        decimal m = 100m;
        m -= await M(0.01m);
        string s = "a";
        s += await I(7);
        return $"{x} {y} {z} {m} {s}";
    }

    static async Task<int> CheckedAdd(int a)
    {
        checked
        {
            return a + await I(int.MaxValue - 5);
        }
    }

    static async Task<long> CheckedMul(long a)
    {
        checked
        {
            return a * await L(long.MaxValue / 3);
        }
    }

    static async Task<string> Comparisons(int a)
    {
        bool lt = a < await I(5);
        bool eq = a * 2 == await I(10);
        int sh = a << await I(2);
        int mod = (a + 100) % await I(7);
        return $"{lt} {eq} {sh} {mod}";
    }

    static async Task Run()
    {
        Console.WriteLine($"OnePlus = {await OnePlus()}");
        Console.WriteLine($"Chain(7) = {await Chain(7)}");
        Console.WriteLine($"Longs(3) = {await Longs(3)}");
        Console.WriteLine($"Doubles(2) = {await Doubles(2.0)}");
        Console.WriteLine($"Decimals(3.2) = {await Decimals(3.2m)}");
        Console.WriteLine($"Compound = {await Compound()}");
        foreach (var a in new[] { 5, 6 })
        {
            try { Console.WriteLine($"CheckedAdd({a}) = {await CheckedAdd(a)}"); }
            catch (Exception e) { Console.WriteLine($"CheckedAdd({a}) threw {e.GetType().Name}: {e.Message}"); }
        }
        foreach (var a in new[] { 3L, 4L })
        {
            try { Console.WriteLine($"CheckedMul({a}) = {await CheckedMul(a)}"); }
            catch (Exception e) { Console.WriteLine($"CheckedMul({a}) threw {e.GetType().Name}: {e.Message}"); }
        }
        Console.WriteLine($"Comparisons(4) = {await Comparisons(4)}");
        Console.WriteLine($"Comparisons(5) = {await Comparisons(5)}");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            await Run();
        }
    }
}
