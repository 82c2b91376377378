// Evaluation order, logged step by step, of expressions that build or take apart several values
// with awaits among them: collection expressions with spreads of awaited collections and awaited
// elements into arrays, List<T>, IEnumerable<T>, ReadOnlySpan-free interfaces and a [CollectionBuilder]
// type; dictionary and nested object initializers whose setters, indexers and Add log; tuple
// deconstruction into logging properties, indexers and array elements (locations first, then values,
// then stores left to right), with awaited Deconstruct results and nested tuples; tuple equality with
// awaited elements; and an exception thrown by a setter midway through a deconstruction.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

[CollectionBuilder(typeof(Bag), nameof(Bag.Create))]
sealed class Bag : IEnumerable<int>
{
    private readonly int[] _items;
    private Bag(int[] items) => _items = items;
    public static Bag Create(ReadOnlySpan<int> items) { Program.Log.Add("Bag.Create" + items.Length); return new Bag(items.ToArray()); }
    public IEnumerator<int> GetEnumerator() => ((IEnumerable<int>)_items).GetEnumerator();
    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}

sealed class Node
{
    private int _value;
    private readonly Dictionary<string, int> _slots = new();
    public string Name = "";
    public int Value { get { Program.Log.Add($"get{Name}.Value"); return _value; } set { Program.Log.Add($"set{Name}.Value={value}"); if (value < 0) throw new ArgumentException("negative"); _value = value; } }
    public int this[string key] { get => _slots[key]; set { Program.Log.Add($"set{Name}[{key}]={value}"); _slots[key] = value; } }
    public List<int> Items { get; } = new();
    public Node? Child { get; set; }
    public override string ToString() => $"{Name}:{_value}[{string.Join(",", _slots.OrderBy(p => p.Key).Select(p => p.Key + "=" + p.Value))}]({string.Join(",", Items)}){(Child is null ? "" : "{" + Child + "}")}";
}

readonly record struct Pair(int Left, int Right)
{
    public void Deconstruct(out int left, out int right) { Program.Log.Add("Deconstruct"); left = Left; right = Right; }
}

static class Program
{
    public static readonly List<string> Log = new();
    static bool Suspend;

    static async Task<T> V<T>(string tag, T value)
    {
        Log.Add(tag);
        if (Suspend) await Task.Yield();
        return value;
    }

    static T L<T>(string tag, T value) { Log.Add(tag); return value; }
    static string Flush() { var s = string.Join(" ", Log); Log.Clear(); return s; }
    static Node N(string name) { Log.Add("N" + name); return new Node { Name = name }; }

    static async Task Collections()
    {
        int[] arr = [L("a", 1), .. await V("many", new[] { 2, 3 }), await V("one", 4), .. L("list", new List<int> { 5 })];
        Console.WriteLine($"  array: {string.Join(",", arr)} | {Flush()}");
        List<int> list = [.. await V("e", Enumerable.Range(1, 2).Select(i => L("sel" + i, i * 10))), L("b", 7), await V("c", 8)];
        Console.WriteLine($"  list: {string.Join(",", list)} | {Flush()}");
        IEnumerable<string> strs = [L("x", "x"), await V("y", "y"), .. await V("zs", new[] { "z1", "z2" })];
        Console.WriteLine($"  enumerable: {string.Join(",", strs)} | {Flush()}");
        IReadOnlyList<long> longs = [await V("l1", 1L), L("l2", 2L), .. await V("ls", new List<long> { 3, 4 })];
        Console.WriteLine($"  readonly list: {string.Join(",", longs)} {longs.Count} | {Flush()}");
        Bag bag = [L("p", 1), await V("q", 2), .. await V("rs", new[] { 3, 4, 5 })];
        Console.WriteLine($"  builder: {string.Join(",", bag)} | {Flush()}");
        int[][] jag = [[await V("j0", 1)], [], [L("j2", 2), .. await V("js", new[] { 3 })]];
        Console.WriteLine($"  jagged: {string.Join("|", jag.Select(a => string.Join(",", a)))} | {Flush()}");
    }

    static async Task Initializers()
    {
        var dict = new Dictionary<string, int> { [L("k1", "a")] = await V("v1", 1), [await V("k2", "b")] = L("v2", 2) };
        var added = new Dictionary<string, int> { { L("k3", "c"), await V("v3", 3) }, { await V("k4", "d"), L("v4", 4) } };
        Console.WriteLine($"  dictionary: {string.Join(",", dict.Concat(added).Select(p => p.Key + p.Value))} | {Flush()}");
        var node = new Node
        {
            Name = L("name", "root"),
            Value = await V("val", 5),
            [L("key", "k")] = await V("slot", 6),
            Items = { L("i1", 1), await V("i2", 2) },
            Child = new Node { Name = "c", Value = await V("cval", 7), Items = { await V("ci", 9) } },
        };
        Console.WriteLine($"  object: {node} | {Flush()}");
    }

    static async Task Deconstruction()
    {
        var a = N("a"); var b = N("b");
        var arr = new int[3];
        (a.Value, arr[L("i", 1)], b[L("key", "k")]) = (await V("x", 1), L("y", 2), await V("z", 3));
        Console.WriteLine($"  tuple: {a} {b} {string.Join(",", arr)} | {Flush()}");
        (N("p").Value, arr[L("i", 2)]) = await V("pair", new Pair(4, 5));
        Console.WriteLine($"  Deconstruct: {string.Join(",", arr)} | {Flush()}");
        ((a.Value, b.Value), arr[L("i", 0)]) = ((L("n1", 6), await V("n2", 7)), await V("n3", 8));
        Console.WriteLine($"  nested: {a} {b} {string.Join(",", arr)} | {Flush()}");
        (arr[0], arr[1]) = (arr[1], arr[0] + await V("s", 100));
        Console.WriteLine($"  swap: {string.Join(",", arr)} | {Flush()}");
        var (l, r) = await V("pair", new Pair(10, 20));
        (int m, (string s, long w)) = (await V("m", 1), (L("s", "s"), await V("w", 2L)));
        Console.WriteLine($"  declared: {l} {r} {m} {s} {w} | {Flush()}");
        bool eq1 = (L("e1", 1), await V("e2", 2)) == (await V("e3", 1), L("e4", 2));
        bool eq2 = (await V("f1", "x"), L("f2", 3L)) != (L("f3", "x"), await V("f4", 4L));
        Console.WriteLine($"  equality: {eq1} {eq2} | {Flush()}");
        try { (a.Value, b.Value, arr[L("i", 2)]) = (await V("g1", 11), L("g2", -1), await V("g3", 13)); }
        catch (ArgumentException e) { Log.Add(e.Message); }
        Console.WriteLine($"  throwing setter: {a} {b} {string.Join(",", arr)} | {Flush()}");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            await Collections();
            await Initializers();
            await Deconstruction();
        }
    }
}
