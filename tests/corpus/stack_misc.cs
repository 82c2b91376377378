// more places an await can sit: the governing expression of a switch statement on strings, a
// throw expression, the collection of a foreach, the resource of a using, an `is` test, a lock-free
// Math call with several awaited arguments, conversions (checked and unchecked) of awaited values,
// boxing of awaited structs, and an await under a unary minus and a logical not.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

sealed class Disposable : IDisposable
{
    public static string Log = "";
    public void Dispose() => Log += "disposed;";
}

static class Program
{
    static bool Suspend;

    static async Task<string> S(string v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<long> L(long v)
    {
        if (Suspend) await Task.Delay(1);
        return v;
    }

    static async Task<bool> B(bool v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<List<int>> Items()
    {
        if (Suspend) await Task.Yield();
        return new List<int> { 3, 1, 2 };
    }

    static async Task<Disposable> Open()
    {
        if (Suspend) await Task.Yield();
        return new Disposable();
    }

    static async Task<DateTime> When()
    {
        if (Suspend) await Task.Yield();
        return new DateTime(2000, 1, 2);
    }

    static async Task<string> Switch(string key)
    {
        switch (await S(key))
        {
            case "a": return "alpha";
            case "b": return "beta" + await S("!");
            case "c":
            case "d": return "c-or-d";
            default: return "unknown " + key;
        }
    }

    static async Task<string> ThrowExpression(string? value)
    {
        try
        {
            string v = value ?? throw new ArgumentException(await S("missing value"));
            return "got " + v;
        }
        catch (ArgumentException e)
        {
            return e.GetType().Name + ": " + e.Message;
        }
    }

    static async Task<string> Misc()
    {
        string s = "";
        foreach (var i in await Items())
            s += i;
        using (await Open())
            s += " using";
        s += " " + (await S("x") is "x");
        s += " " + Math.Max(await L(3), Math.Min(await L(9), await L(7)));
        s += " " + (int)await L(1L << 33);
        try
        {
            s += " " + checked((int)await L(1L << 33));
        }
        catch (OverflowException e)
        {
            s += " " + e.GetType().Name;
        }
        object boxed = await When();
        s += " " + ((DateTime)boxed).Day;
        s += " " + -await L(5) + " " + !await B(false);
        return s;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Disposable.Log = "";
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var k in new[] { "a", "b", "c", "z" })
                Console.WriteLine(await Switch(k));
            Console.WriteLine(await ThrowExpression("v"));
            Console.WriteLine(await ThrowExpression(null));
            Console.WriteLine(await Misc() + " " + Disposable.Log);
        }
    }
}
