// C# 13 params collections in less common positions with awaited arguments: indexers taking params ReadOnlySpan<int> (get, set, compound assignment, ++, empty span) and params List<int> (compound assignment with an awaited right side), a struct constructor taking params IEnumerable<int>, a struct-local receiver calling a params ReadOnlySpan method, an extension-block method with params ImmutableArray<int> and an async one with params int[], and C# 12 lambdas with params arrays.
using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading.Tasks;

sealed class Grid
{
    private readonly Dictionary<string, int> _cells = new();
    public int this[params ReadOnlySpan<int> idx]
    {
        get { var k = string.Join(".", idx.ToArray()); Program.Log($"get[{k}]"); return _cells.GetValueOrDefault(k); }
        set { var k = string.Join(".", idx.ToArray()); Program.Log($"set[{k}]={value}"); _cells[k] = value; }
    }
    public string this[string prefix, params List<int> rest]
    {
        get { Program.Log($"get[{prefix};{string.Join(".", rest)}]"); return prefix + rest.Count; }
        set { Program.Log($"set[{prefix};{string.Join(".", rest)}]={value}"); }
    }
    public override string ToString() => string.Join(",", _cells.OrderBy(p => p.Key).Select(p => $"{p.Key}={p.Value}"));
}

struct Acc
{
    public int Sum;
    public void AddAll(params ReadOnlySpan<int> xs) { foreach (var x in xs) Sum += x; Program.Log($"AddAll->{Sum}"); }
    public Acc(params IEnumerable<int> xs) { Sum = xs.Sum(); Program.Log($"ctor->{Sum}"); }
}

static class Ext
{
    extension(Grid g)
    {
        public int Total(params ImmutableArray<int> xs) { Program.Log($"Total({string.Join(",", xs)})"); return xs.Sum(); }
        public async Task<int> SetManyAsync(int value, params int[] keys) { foreach (var k in keys) { await Program.Pause(); g[k] = value; } return keys.Length; }
    }
}

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();
    public static void Log(string s) => s_log.Add(s);
    public static async Task Pause() { if (s_suspend) await Task.Yield(); }
    static async Task<int> Val(int x) { Log($"Val({x})"); await Pause(); return x; }
    static int L(int x) { Log($"L({x})"); return x; }
    static string Flush() { var s = string.Join(" ", s_log); s_log.Clear(); return s; }

    static async Task Run()
    {
        var g = new Grid();
        int ten = await Val(10);
        g[await Val(1), L(2)] = ten;
        g[L(1), await Val(2)] += L(5);
        g[await Val(3)] = g[1, 2] + L(1);
        g[[]] = L(99);
        int v = g[L(1), 2] + await Val(0);
        Console.WriteLine($"  span indexer: {g} v={v} | {Flush()}");
        g[await Val(7), L(8), await Val(9)] -= L(4);
        g[L(7), 8, await Val(9)] *= L(5);
        g[await Val(4)]++;
        Console.WriteLine($"  span indexer 2: {g} | {Flush()}");
        g["p", await Val(1), L(2)] = "x";
        g[await Task.FromResult("q")] += await Task.FromResult("!");
        Console.WriteLine($"  list indexer: {Flush()}");
        var acc = new Acc(await Val(1), L(2), await Val(3));
        acc.AddAll(await Val(10), L(20));
        acc.AddAll([await Val(100), .. new[] { L(200) }]);
        int t = g.Total(await Val(1), L(2), await Val(3));
        int n = await g.SetManyAsync(await Val(42), L(100), await Val(101));
        Console.WriteLine($"  calls: {acc.Sum} {t} {n} {g} | {Flush()}");
        Func<int, int[], int> f = (int a, params int[] rest) => a + rest.Sum();
        var lam = (int a, params int[] rest) => a * 100 + rest.Length;
        int fr = lam(await Val(3), await Val(4), L(5)) + lam(L(1));
        Console.WriteLine($"  lambda: {fr} {f(1, [await Val(2)])} | {Flush()}");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            await Run();
        }
    }
}
