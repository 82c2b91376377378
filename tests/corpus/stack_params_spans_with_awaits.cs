// Awaits among the elements of C# 13 params collections and of collection expressions passed as
// spans, where the compiler builds the span over an inline array in the frame: library calls that
// bind to params ReadOnlySpan<T> overloads since .NET 9 (string.Concat of five or more parts,
// string.Join and string.Format with many arguments, Path.Combine, Task.WhenAll over tasks started
// before an await), user methods taking params ReadOnlySpan<T>, params Span<T> (written to by the
// callee), params IEnumerable<T> and params List<T>, collection expressions with spreads of awaited
// collections passed as ReadOnlySpan<T>, and an element that throws after an awaited sibling; each
// logs its side effects in order.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static readonly List<string> Log = new();

    static async Task<T> V<T>(string tag, T value)
    {
        Log.Add(tag);
        if (Suspend) await Task.Yield();
        return value;
    }

    static T L<T>(string tag, T value) { Log.Add(tag); return value; }
    static T Throw<T>(string tag) { Log.Add(tag); throw new InvalidOperationException(tag); }
    static string Flush() { var s = string.Join(" ", Log); Log.Clear(); return s; }

    static int Sum(params ReadOnlySpan<int> items)
    {
        int total = 0;
        foreach (var i in items) total = total * 10 + i;
        return total;
    }

    static string Fill(params Span<long> items)
    {
        for (int i = 0; i < items.Length; i++) items[i] *= 2;
        return string.Join("+", items.ToArray());
    }

    static string Seq(string head, params IEnumerable<string> rest) => head + ":" + string.Join(",", rest);
    static string Lst(params List<decimal> items) => string.Join(";", items) + "#" + items.Count;
    static string Objs(string tag, params ReadOnlySpan<object?> items) => tag + "[" + string.Join(",", items.ToArray().Select(o => o?.GetType().Name + "=" + o)) + "]";

    static async Task Library()
    {
        string c5 = string.Concat(L("a", "a"), await V("b", "b"), L("c", "c"), await V("d", "d"), L("e", "e"));
        string c6 = string.Concat(await V("1", "1"), "2", L("3", "3"), await V("4", "4"), "5", await V("6", "6"));
        Console.WriteLine($"  concat: {c5} {c6} | {Flush()}");
        string j = string.Join("-", L("x", 1), await V("y", 2.5), L("z", 'z'), await V("w", (object?)null), 7m);
        string js = string.Join("/", L("s1", "p"), await V("s2", "q"), L("s3", "r"), await V("s4", "s"));
        Console.WriteLine($"  join: {j} {js} | {Flush()}");
        string f = string.Format("{0}|{1}|{2}|{3}|{4:X}", L("f0", 0), await V("f1", "one"), L("f2", 2L), await V("f3", 3.0), await V("f4", 255));
        Console.WriteLine($"  format: {f} | {Flush()}");
        string p = Path.Combine(L("p1", "root"), await V("p2", "dir"), L("p3", "sub"), await V("p4", "file.txt"));
        Console.WriteLine($"  path: {p.Replace('\\', '/')} | {Flush()}");
        var t1 = V("t1", 1);
        var all = await Task.WhenAll(t1, await V("t2", V("t2inner", 2)), L("t3", Task.FromResult(3)));
        Console.WriteLine($"  whenall: {string.Join(",", all)} | {Flush()}");
    }

    static async Task User()
    {
        int s1 = Sum(L("a", 1), await V("b", 2), L("c", 3), await V("d", 4));
        int s2 = Sum([L("a", 5), .. await V("many", new[] { 6, 7 }), await V("e", 8)]);
        int s3 = Sum([.. await V("list", new List<int> { 1, 2 }), .. L("arr", new[] { 3 }), .. await V("en", Enumerable.Range(4, 2))]);
        Console.WriteLine($"  span: {s1} {s2} {s3} | {Flush()}");
        string f1 = Fill(L("a", 1L), await V("b", 2L), L("c", 3L));
        string f2 = Fill([await V("x", 10L), .. await V("ys", new long[] { 20, 30 })]);
        Console.WriteLine($"  mutable span: {f1} {f2} | {Flush()}");
        string q1 = Seq(await V("h", "head"), L("r1", "r1"), await V("r2", "r2"), L("r3", "r3"));
        string q2 = Lst(L("m1", 1.5m), await V("m2", 2.25m), L("m3", 3m), await V("m4", -4m));
        string q3 = Objs(await V("tag", "t"), L("o1", 1), await V("o2", (byte)2), L("o3", (int?)null), await V("o4", (Half)1.5), L("o5", DayOfWeek.Friday));
        Console.WriteLine($"  collections: {q1} {q2} {q3} | {Flush()}");
        int nested = Sum(Sum(L("i1", 1), await V("i2", 2)), await V("o", 3), Sum([await V("k", 4), L("l", 5)]));
        Console.WriteLine($"  nested: {nested} | {Flush()}");
    }

    static async Task Throwing()
    {
        try { Sum(L("a", 1), await V("b", 2), Throw<int>("c"), L("d", 4)); }
        catch (InvalidOperationException e) { Log.Add("caught " + e.Message); }
        Console.WriteLine($"  span element throws: {Flush()}");
        try { string.Concat(L("a", "a"), await V("b", "b"), L("c", "c"), Throw<string>("d"), await V("e", "e")); }
        catch (InvalidOperationException e) { Log.Add("caught " + e.Message); }
        Console.WriteLine($"  concat part throws: {Flush()}");
        try { Sum([L("a", 1), .. await V("many", Many()), await V("c", 3)]); }
        catch (InvalidOperationException e) { Log.Add("caught " + e.Message); }
        Console.WriteLine($"  spread throws: {Flush()}");
    }

    static IEnumerable<int> Many()
    {
        yield return L("m1", 1);
        Throw<int>("m2");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            await Library();
            await User();
            await Throwing();
        }
    }
}
