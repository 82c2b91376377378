// Collection expressions with awaited elements and spreads into Span/ReadOnlySpan locals (not live across awaits), stackalloc initializers with awaits, span arguments, a generic [CollectionBuilder] struct, ImmutableArray/List/HashSet, ICollection/IList/IReadOnlyCollection, Add-based collections, pattern-enumerable struct spreads, nested and conditional collection expressions, and generic T element types.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

[CollectionBuilder(typeof(RingBuilder), nameof(RingBuilder.Create))]
readonly struct Ring<T> : IEnumerable<T>
{
    private readonly T[] _items;
    public Ring(T[] items) => _items = items;
    public int Count => _items?.Length ?? 0;
    public IEnumerator<T> GetEnumerator() => ((IEnumerable<T>)(_items ?? Array.Empty<T>())).GetEnumerator();
    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
    public override string ToString() => "Ring(" + string.Join(",", this) + ")";
}
static class RingBuilder
{
    public static Ring<T> Create<T>(ReadOnlySpan<T> items) { Program.Log($"Ring.Create{items.Length}"); var a = items.ToArray(); Array.Reverse(a); return new Ring<T>(a); }
}

sealed class Tally : IEnumerable<int>
{
    private readonly List<int> _l = new();
    public void Add(int x) { Program.Log($"Tally.Add({x})"); _l.Add(x); }
    public IEnumerator<int> GetEnumerator() => _l.GetEnumerator();
    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}

struct Countdown
{
    public int N;
    public Countdown(int n) => N = n;
    public Countdown GetEnumerator() => this;
    public int Current => N;
    public bool MoveNext() { Program.Log($"cd{N}"); return --N >= 0; }
}

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();
    public static void Log(string s) => s_log.Add(s);
    static async Task<T> V<T>(string tag, T x) { Log(tag); if (s_suspend) await Task.Yield(); return x; }
    static T L<T>(string tag, T x) { Log(tag); return x; }
    static string Flush() { var s = string.Join(" ", s_log); s_log.Clear(); return s; }

    static int SumSpan(ReadOnlySpan<int> s, int mul) { int t = 0; foreach (var x in s) t = t * 10 + x; return t * mul; }
    static string Join2(IEnumerable<int> a, IReadOnlyCollection<string> b) => string.Join(",", a) + "/" + string.Join(",", b) + "#" + b.Count;

    static async Task SpanLocals()
    {
        Span<int> s = [await V("a", 1), L("b", 2), await V("c", 3)];
        int first = s[0] + s[^1];
        ReadOnlySpan<int> r = [L("d", 4), .. await V("e", new[] { 5, 6 })];
        int rs = 0; foreach (var x in r) rs += x;
        Span<int> st = stackalloc int[] { await V("f", 7), L("g", 8) };
        st[1] += 1;
        int sts = st[0] * 100 + st[1];
        string after = await V("h", "after");
        ReadOnlySpan<char> chars = [.. await V("i", "xyz"), '!'];
        Console.WriteLine($"  span locals: {first} {rs} {sts} {after} {chars.ToString()} | {Flush()}");
        int a1 = SumSpan([await V("j", 1), 2], L("k", 3));
        int a2 = SumSpan([L("l", 4), .. await V("m", new List<int> { 5 })], L("n", 2));
        string j2 = Join2([await V("o", 1), .. new Countdown(2)], [L("p", "x"), await V("q", "y")]);
        Console.WriteLine($"  args: {a1} {a2} {j2} | {Flush()}");
    }

    static async Task Targets()
    {
        Ring<int> ring = [L("a", 1), await V("b", 2), .. await V("c", new[] { 3, 4 })];
        Ring<string> empty = [];
        Ring<string> rs = [.. await V("d", ImmutableArray.Create("p", "q")), L("e", "r")];
        Console.WriteLine($"  builder: {ring} {ring.Count} {empty.Count} {rs} | {Flush()}");
        ImmutableArray<int> ia = [await V("f", 1), .. await V("g", new Countdown(3)), L("h", 9)];
        ImmutableList<string> il = [L("i", "x"), await V("j", "y")];
        ImmutableHashSet<int> ih = [await V("k", 3), 3, L("l", 4)];
        Console.WriteLine($"  immutable: {string.Join(",", ia)} {string.Join(",", il)} {ih.Count} | {Flush()}");
        ICollection<int> ic = [await V("m", 1), L("n", 2)];
        ic.Add(await V("o", 3));
        IList<int> il2 = [.. await V("p", ia), await V("q", 0)];
        il2[0] = await V("r", -1);
        IReadOnlyCollection<int> roc = [.. await V("s", new Countdown(2)), .. await V("t", new HashSet<int> { 7 })];
        Console.WriteLine($"  interfaces: {string.Join(",", ic)} {string.Join(",", il2)} {string.Join(",", roc)} {roc.Count} | {Flush()}");
        Tally tally = [L("u", 1), await V("v", 2), .. await V("w", new[] { 3, 4 })];
        HashSet<string> hs = [await V("x", "a"), "a", L("y", "b")];
        Dictionary<int, string> dict = new() { [await V("z", 1)] = "one" };
        Console.WriteLine($"  add-based: {string.Join(",", tally)} {hs.Count} {dict[1]} | {Flush()}");
    }

    static async Task<T[]> Generic<T>(T a, Func<Task<T>> b, IEnumerable<T> more)
    {
        T[] arr = [a, await b(), .. more, .. await V("gen", more.Reverse().ToList())];
        List<T> list = [.. arr, await b()];
        Ring<T> ring = [await b(), .. list];
        ReadOnlySpan<T> span = [.. ring];
        return [.. span, await V("last", a)];
    }

    static async Task Nested()
    {
        int[][] jag = [[await V("a", 1), L("b", 2)], [.. await V("c", new[] { 3 })], []];
        List<int[]> lj = [[L("d", 4)], await V("e", new[] { 5, 6 }), [await V("f", 7), .. jag[0]]];
        var flat = lj.SelectMany(x => x).ToArray();
        int[] cond = await V("g", true) ? [await V("h", 1), 2] : [L("i", 3)];
        IEnumerable<int> sw = await V("j", 2) switch { 1 => [1], 2 => [await V("k", 20), .. cond], _ => [] };
        Console.WriteLine($"  nested: {string.Join("|", jag.Select(a => string.Join(",", a)))} {string.Join(",", flat)} {string.Join(",", cond)} {string.Join(",", sw)} | {Flush()}");
        var g1 = await Generic(1, () => V("b", 2), [3, 4]);
        var g2 = await Generic("s", () => V("b", "t"), new List<string> { "u" });
        Console.WriteLine($"  generic: {string.Join(",", g1)} {string.Join(",", g2)} | {Flush()}");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            await SpanLocals();
            await Targets();
            await Nested();
        }
    }
}
