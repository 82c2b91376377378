// locals introduced by patterns and declarations and live across awaits: `out var` variables, `is`
// pattern variables, switch-case pattern variables, deconstruction of awaited tuples and of objects,
// foreach deconstruction, locals assigned only on some paths, and locals reused in later scopes.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

sealed class Pair
{
    public string Key;
    public int Value;
    public Pair(string key, int value) { Key = key; Value = value; }
    public void Deconstruct(out string key, out int value) { key = Key; value = Value; }
}

static class Program
{
    static bool Suspend;

    static async Task<int> I(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<(int, string, double)> Triple(int seed)
    {
        if (Suspend) await Task.Delay(1);
        return (seed, "t" + seed, seed / 2.0);
    }

    static async Task<object> Boxed(object o)
    {
        if (Suspend) await Task.Yield();
        return o;
    }

    static async Task<string> OutAndIs(string text)
    {
        string s = "";
        if (int.TryParse(text, out var parsed))
        {
            s += "parsed " + await I(parsed);
            s += " still " + parsed;
        }
        if (await Boxed(parsed * 2) is int doubled && doubled > 10)
        {
            await I(0);
            s += " doubled " + doubled;
        }
        object o = await Boxed(text);
        if (o is string str && str.Length > 1)
        {
            int len = await I(str.Length);
            s += $" str {str} {len}";
        }
        return s;
    }

    static async Task<string> SwitchPatterns(object o)
    {
        switch (await Boxed(o))
        {
            case int n when n > await I(5):
                return "big int " + n + await I(0);
            case int n:
                await I(1);
                return "int " + n;
            case string { Length: > 2 } s:
                return "long string " + s + await I(s.Length);
            case Pair(var key, var value):
                await I(2);
                return $"pair {key}={value}";
            default:
                return "other";
        }
    }

    static async Task<string> Deconstruction()
    {
        var (a, b, c) = await Triple(3);
        await I(0);
        (int x, string y) = (await I(4), await Triple(5).ContinueWith(t => t.Result.Item2));
        var (k, v) = new Pair("k", await I(6));
        string s = $"{a} {b} {c} {x} {y} {k} {v}";
        var pairs = new List<Pair> { new Pair("p", 1), new Pair("q", 2) };
        foreach (var (key, value) in pairs)
            s += $" {key}{value + await I(10)}";
        foreach (var (n, m) in new[] { (1, 2), (3, 4) })
            s += " " + (n * await I(m));
        return s;
    }

    static async Task<string> SomePaths(int mode)
    {
        string result;
        int extra;
        if (mode > 0)
        {
            result = "positive";
            extra = await I(mode);
        }
        else
        {
            extra = -1;
            await I(0);
            result = mode == 0 ? "zero" : "negative";
        }
        {
            int scoped = await I(extra * 2);
            result += " " + scoped;
        }
        {
            int scoped = extra + 100;
            await I(0);
            result += " " + scoped;
        }
        return result;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await OutAndIs("21"));
            Console.WriteLine(await OutAndIs("x"));
            foreach (var o in new object[] { 3, 9, "ab", "abc", new Pair("z", 26), 1.5 })
                Console.WriteLine(await SwitchPatterns(o));
            Console.WriteLine(await Deconstruction());
            foreach (var mode in new[] { -1, 0, 2 })
                Console.WriteLine(await SomePaths(mode));
        }
    }
}
