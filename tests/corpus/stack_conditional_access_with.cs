// Awaits inside null-conditional chains, ?? and ??=, is-patterns and with-expressions, where the
// operands evaluated before the await must survive it unchanged: a?.M(await X()) with a receiver
// field reassigned while the argument is awaited, chains a?.B?.C(await X())?.D, null-conditional
// calls on nullable structs and on struct elements of arrays, conditional element access a?[await i],
// null-conditional assignment targets evaluated before ??= awaits, property patterns, list patterns
// and relational patterns whose subject or whose comparands come from awaits, and with-expressions
// on record classes, record structs and anonymous types whose initializers await while the original
// is mutated (the copy is taken first), plus the evaluation order of every part.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

sealed class Node
{
    public string Name;
    public Node? Next;
    public int[]? Values;
    public Node(string name, Node? next = null) { Name = name; Next = next; }
    public Node Append(string suffix) { Program.Log($"Append({Name},{suffix})"); return new Node(Name + suffix, Next); }
    public string? Describe(int x) { Program.Log($"Describe({Name},{x})"); return x < 0 ? null : $"{Name}:{x}"; }
    public Dictionary<string, int>? Counts;
}

struct Meter
{
    public int Total;
    public int Add(int x) { Total += x; return Total; }
}

record class Person(string First, string Last, int Age)
{
    public List<string> Tags { get; init; } = new();
}

record struct Vec(int X, int Y, string? Label);

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();
    static Node? s_head;
    public static void Log(string s) => s_log.Add(s);

    static async Task<T> Val<T>(T value, string tag)
    {
        Log(tag);
        if (s_suspend) await Task.Yield();
        return value;
    }

    static string Flush() { var s = string.Join(" ", s_log); s_log.Clear(); return s; }

    static async Task<string> NullConditional()
    {
        var parts = new List<string>();
        s_head = new Node("h", new Node("n"));
        // The receiver is read before the argument's await; replacing the field meanwhile must not matter.
        string? r1 = s_head?.Describe(await ReplaceHeadThen(5));
        parts.Add($"r1={r1} head={s_head?.Name} [{Flush()}]");
        Node? none = null;
        string? r2 = none?.Describe(await Val(1, "never-evaluated?"));
        parts.Add($"r2={r2 ?? "null"} [{Flush()}]");
        var chain = new Node("a", new Node("b", new Node("c")));
        string? r3 = chain.Next?.Next?.Append(await Val("!", "suffix"))?.Describe(await Val(3, "x"))?.ToUpperInvariant();
        string? r4 = chain.Next?.Next?.Next?.Append(await Val("?", "suffix2")).Name;
        int? len = chain?.Next?.Describe(await Val(-1, "neg"))?.Length;
        parts.Add($"r3={r3} r4={r4 ?? "null"} len={len?.ToString() ?? "null"} [{Flush()}]");
        chain.Values = new[] { 10, 20, 30 };
        int? e1 = chain.Values?[await Val(2, "idx")];
        int? e2 = chain.Next?.Values?[await Val(0, "idx2")];
        chain.Counts = new();
        chain.Counts["k"] = await Val(1, "c1");
        chain.Counts["k"] += await Val(41, "c2");
        int? e3 = chain.Counts?[await Val("k", "key")];
        parts.Add($"e1={e1} e2={e2?.ToString() ?? "null"} e3={e3} [{Flush()}]");
        Meter? maybe = new Meter { Total = 100 };
        int? m1 = maybe?.Add(await Val(5, "m"));
        Meter? nothing = null;
        int? m2 = nothing?.Add(await Val(5, "m2"));
        var meters = new Meter[2];
        meters[await Val(1, "mi")].Add(await Val(7, "mv"));
        meters[1].Total += await Val(3, "mt");
        parts.Add($"m1={m1} maybe.Total={maybe.GetValueOrDefault().Total} m2={m2?.ToString() ?? "null"} meters[1]={meters[1].Total} [{Flush()}]");
        return string.Join("\n  ", parts);
    }

    static async Task<int> ReplaceHeadThen(int x)
    {
        s_head = new Node("replaced");
        return await Val(x, "arg");
    }

    static async Task<string> Coalescing()
    {
        var parts = new List<string>();
        string? a = null;
        string r1 = a ?? await Val("fallback", "f1");
        string r2 = (await Val<string?>(null, "q1")) ?? (await Val<string?>(null, "q2")) ?? await Val("third", "q3");
        string r3 = await Val<string?>("first", "q4") ?? await Val("unused", "q5");
        parts.Add($"{r1} {r2} {r3} [{Flush()}]");
        var node = new Node("x");
        node.Next ??= new Node(await Val("made", "n1"));
        node.Next ??= new Node(await Val("again", "n2"));
        node.Next.Next ??= await MakeNode("deep");
        int?[] slots = new int?[3];
        slots[await Val(1, "s-idx")] ??= await Val(9, "s-val");
        slots[1] ??= await Val(8, "s-val2");
        int? total = slots[0] ?? slots[2] ?? await Val<int?>(null, "s-null") ?? slots[1];
        parts.Add($"{node.Next.Name}/{node.Next.Next?.Name} [{string.Join(",", slots)}] total={total} [{Flush()}]");
        return string.Join("\n  ", parts);
    }

    static async Task<Node> MakeNode(string name) => new Node(await Val(name, "mk"));

    static async Task<string> Patterns()
    {
        var parts = new List<string>();
        object o = await Val<object>(new Person("Ada", "L", 36), "subject");
        string p1 = o is Person { Age: > 30, First: var f } p && p.Last.Length == await Val(1, "cmp") ? $"senior {f}" : "other";
        string p2 = await Val<object?>(42, "s2") switch
        {
            int i when i > await Val(100, "guard1") => "big",
            int i when i > await Val(40, "guard2") => $"medium {i}",
            _ => "small",
        };
        int[] arr = await Val(new[] { 1, 2, 3, 4 }, "arr");
        string p3 = arr is [1, .. var mid, var last] ? $"mid={string.Join("", mid)} last={last + await Val(10, "add")}" : "no";
        bool p4 = await Val<object?>(null, "s4") is not null;
        bool p5 = await Val(7, "s5") is >= 5 and < 10 or 42;
        bool p6 = (await Val<Vec?>(new Vec(1, 2, null), "s6")) is { X: 1, Label: null };
        parts.Add($"{p1} | {p2} | {p3} | {p4} {p5} {p6} [{Flush()}]");
        return string.Join("\n  ", parts);
    }

    static async Task<string> WithExpressions()
    {
        var parts = new List<string>();
        var ada = new Person("Ada", "Lovelace", 36) { Tags = new() { "math" } };
        var older = ada with { Age = ada.Age + await Val(1, "age"), Last = await MutateThen(ada, "King") };
        parts.Add($"{ada.First} {ada.Last} {ada.Age} -> {older.First} {older.Last} {older.Age} sameTags={ReferenceEquals(ada.Tags, older.Tags)} [{Flush()}]");
        var v = new Vec(1, 2, "v");
        var w = v with { X = await Val(10, "wx"), Label = v.Label + await Val("!", "wl") };
        var vs = new[] { v, w };
        vs[1] = vs[await Val(0, "vi")] with { Y = await BumpThen(vs, 99) };
        parts.Add($"{v} {w} {vs[0]} {vs[1]} [{Flush()}]");
        var anon = new { Name = "a", Count = 1 };
        var anon2 = anon with { Count = anon.Count + await Val(2, "ac") };
        Vec? nv = new Vec(5, 6, "n");
        var nv2 = nv.Value with { Y = await Val(60, "ny") };
        parts.Add($"{anon2} {nv2} [{Flush()}]");
        return string.Join("\n  ", parts);
    }

    static async Task<string> MutateThen(Person p, string last)
    {
        p.Tags.Add("mutated");
        return await Val(last, "last");
    }

    static async Task<int> BumpThen(Vec[] vs, int y)
    {
        vs[0] = new Vec(-1, -1, "bumped");
        return await Val(y, "vy");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine($"  {await NullConditional()}");
            Console.WriteLine($"  {await Coalescing()}");
            Console.WriteLine($"  {await Patterns()}");
            Console.WriteLine($"  {await WithExpressions()}");
        }
    }
}
