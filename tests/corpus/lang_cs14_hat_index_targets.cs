// C# 13 implicit-index (^) element initializers on a user type with Count and an indexer, on array and List properties, with awaited indices (^await F()) and values, nested initializers; C# 14 null-conditional assignment and compound assignment to ^-indexed elements with awaited indices and values, an Index local built from an await, and a bad ^ index throwing after the await.
// (Debug builds of Roslyn 10.0.401 emit invalid IL, classic and runtime-async alike, for s?.Row[^1] = await F() on a user type and similar; those statements are written with an if here.)
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

sealed class Row
{
    private readonly int[] _cells;
    public string Name;
    public Row(string name, int n) { Name = name; _cells = new int[n]; }
    public int Count { get { Program.Log($"{Name}.Count"); return _cells.Length; } }
    public int this[int i] { get { Program.Log($"{Name}[{i}]get"); return _cells[i]; } set { Program.Log($"{Name}[{i}]={value}"); _cells[i] = value; } }
    public override string ToString() => $"{Name}({string.Join(",", _cells)})";
}

sealed class Sheet
{
    public string Name = "s";
    public Row Row { get { Program.Log($"{Name}.Row"); return field; } } = new Row("r", 4);
    public int[] Arr { get { Program.Log($"{Name}.Arr"); return field; } } = new int[4];
    public List<string> Tags { get { Program.Log($"{Name}.Tags"); return field; } } = new() { "a", "b", "c" };
    public Sheet? Next;
    public override string ToString() => $"{Row} [{string.Join(",", Arr)}] {{{string.Join(",", Tags)}}}";
}

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();
    public static void Log(string s) => s_log.Add(s);
    static async Task<int> Val(int x) { Log($"Val({x})"); if (s_suspend) await Task.Yield(); return x; }
    static async Task<string> Str(string x) { Log($"Str({x})"); if (s_suspend) await Task.Yield(); return x; }
    static string Flush() { var s = string.Join(" ", s_log); s_log.Clear(); return s; }

    static async Task Initializers()
    {
        var s = new Sheet
        {
            Row = { [^1] = await Val(9), [^await Val(2)] = 8, [await Val(0)] = await Val(7) },
            Arr = { [^await Val(1)] = await Val(4), [^4] = 1 },
            Tags = { [^1] = await Str("z"), [^await Val(3)] = "x" },
        };
        Console.WriteLine($"  init: {s} | {Flush()}");
        var s2 = new Sheet { Name = await Str("t"), Row = { [^1] = 1 }, Next = new Sheet { Name = "n", Arr = { [^2] = await Val(5) } } };
        Console.WriteLine($"  init2: {s2} {s2.Next} | {Flush()}");
    }

    static async Task Assignments(Sheet? s)
    {
        if (s is not null) s.Row[^1] = await Val(11);
        s?.Row[^await Val(2)] += await Val(3);
        s?.Arr[^1] += await Val(5);
        if (s is not null) s.Tags[^await Val(1)] = await Str("q");
        s?.Next?.Row[0] = await Val(6);
        int? got = s?.Row[^1];
        Index idx = ^await Val(3);
        if (s is not null) s.Row[idx] = await Val(12);
        var r = s?.Row;
        r?[^1] -= await Val(1);
        Console.WriteLine($"  assign: {s?.ToString() ?? "null"} {s?.Next?.ToString() ?? "-"} got={got} | {Flush()}");
        try { if (s is not null) s.Row[^await Val(9)] = await Val(1); }
        catch (IndexOutOfRangeException) { Log("IOOR"); }
        catch (ArgumentOutOfRangeException) { Log("AOOR"); }
        Console.WriteLine($"  bad index: {Flush()}");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            await Initializers();
            await Assignments(null);
            await Assignments(new Sheet());
            await Assignments(new Sheet { Next = new Sheet { Name = "x" } });
        }
    }
}
