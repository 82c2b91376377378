// Spans and collections built from awaited values, where Roslyn materializes inline-array buffers,
// spans and builders in the async method itself: params ReadOnlySpan<T>, params Span<T> and params
// IEnumerable<T> callees called with awaited arguments (the inline array is filled after the
// awaits), collection expressions with spreads of awaited lists, arrays and sequences into arrays,
// List<T>, IEnumerable<T>, IReadOnlyList<T>, HashSet<T>, ImmutableArray<T> and ReadOnlySpan<T>
// targets, C# 14 first-class span conversions (arrays and strings passed where ReadOnlySpan<T> and
// Span<T> are expected, extension methods on ReadOnlySpan<T> called on arrays) between awaits, ref
// and ref readonly locals and `allows ref struct` generic callees used between awaits, object
// initializers with C# 13 implicit-index (^) element initializers, nested member initializers and
// collection initializers whose values are awaited, and lock on System.Threading.Lock between awaits.
using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

static class SpanExt
{
    public static int SumAll(this ReadOnlySpan<int> s) { int t = 0; foreach (var x in s) t += x; return t; }
    public static string Show<T>(this ReadOnlySpan<T> s) => "[" + string.Join(",", s.ToArray()) + "]";
}

static class RefStructs
{
    public static T Id<T>(T x) where T : allows ref struct => x;
    public static int Len<T>(T s) where T : IHasLength, allows ref struct => s.Length;
}

interface IHasLength { int Length { get; } }
ref struct Window : IHasLength
{
    private readonly ReadOnlySpan<int> span;
    public Window(ReadOnlySpan<int> s) { span = s; }
    public int Length => span.Length;
    public int First => span[0];
}

sealed class Board
{
    public int[] Cells = new int[5];
    public List<string> Tags = new() { "a", "b", "c" };
    public Dictionary<string, int> Scores = new();
    public Inner Inner = new();
    public override string ToString() => $"cells={string.Join(",", Cells)} tags={string.Join(",", Tags)} scores={string.Join(",", Scores.OrderBy(k => k.Key).Select(k => $"{k.Key}:{k.Value}"))} inner={Inner.X},{string.Join(",", Inner.Items)}";
}
sealed class Inner { public int X; public List<int> Items = new(); }

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();
    static void Log(string s) => s_log.Add(s);
    static async Task<int> Val(int x) { Log($"Val({x})"); if (s_suspend) await Task.Yield(); return x; }
    static async Task<string> Str(string s) { Log($"Str({s})"); if (s_suspend) await Task.Delay(1); return s; }
    static async Task<int[]> Arr(params int[] xs) { Log($"Arr({xs.Length})"); if (s_suspend) await Task.Yield(); return xs; }
    static async Task<List<int>> Lst(params int[] xs) { Log($"Lst({xs.Length})"); if (s_suspend) await Task.Yield(); return xs.ToList(); }
    static async Task<IEnumerable<int>> Seq(int n) { if (s_suspend) await Task.Yield(); return Enumerable.Range(100, n); }

    static int Total(params ReadOnlySpan<int> xs) { int t = 0; foreach (var x in xs) t += x; return t * 10 + xs.Length; }
    static int Twice(params Span<int> xs) { for (int i = 0; i < xs.Length; i++) xs[i] *= 2; return xs.SumAll(); }
    static string Names(params IEnumerable<string> xs) => string.Join("+", xs);
    static string Chars(ReadOnlySpan<char> cs) => $"{cs.Length}:{cs[0]}";
    static int Fill(Span<int> s, int v) { s.Fill(v); return s.Length; }

    static async Task<string> Params()
    {
        int a = Total(await Val(1), await Val(2), await Val(3));
        int b = Total(1, await Val(2), Total(await Val(3), 4), await Val(5));
        int c = Twice(await Val(4), 5) + Twice();
        string d = Names(await Str("x"), "y", await Str("z"));
        string e = Names();
        int f = Total(await Arr(7, 8));
        int g = Total([.. await Arr(1, 2), await Val(3)]);
        return $"{a} {b} {c} {d} [{e}] {f} {g}";
    }

    static async Task<string> Collections()
    {
        int[] arr = [await Val(1), .. await Arr(2, 3), .. await Lst(4), await Val(5)];
        List<int> list = [.. arr, .. await Seq(2), await Val(6)];
        IEnumerable<int> seq = [.. await Lst(9, 8), await Val(7)];
        IReadOnlyList<string> names = [await Str("p"), .. (await Str("q,r")).Split(',')];
        HashSet<int> set = [await Val(1), .. arr, await Val(1)];
        ImmutableArray<int> imm = [await Val(3), .. await Arr(2, 1)];
        ReadOnlySpan<int> span = [await Val(10), .. await Arr(20, 30)];
        int spanSum = span.SumAll();
        string spanShow = span.Show();
        int four = await Val(4);
        Span<int> scratch = [await Val(1), 2, 3];
        int filled = Fill(scratch, four) + scratch[2];
        ReadOnlySpan<int> empty = [];
        return $"{string.Join(",", arr)} | {string.Join(",", list)} | {string.Join(",", seq)} | {string.Join(",", names)} | {set.Count} | {string.Join(",", imm)} | {spanSum} {spanShow} {empty.Length} {filled}";
    }

    static async Task<string> FirstClassSpans()
    {
        int[] arr = await Arr(5, 6, 7);
        int s1 = arr.SumAll();
        string sh = arr.Show();
        string c = Chars(await Str("hello"));
        int s2 = SpanExt.SumAll(await Arr(1, 1)) + await Val(1);
        ReadOnlySpan<int> ro = arr;
        int s3 = ro[^1];
        s3 += await Val(100);
        Span<int> sp = arr;
        sp[0] = 50;
        arr[1] += await Val(50);
        int f = Fill(arr, 9);
        ReadOnlySpan<string> strs = new[] { await Str("k"), "l" };
        return $"{s1} {sh} {c} {s2} {s3} {arr[0]} {f} {strs.Show()}";
    }

    static readonly Lock s_lock = new();
    static int s_counter;
    static async Task<string> RefsAndLocks()
    {
        var board = new Board();
        ref int cell = ref board.Cells[await Val(2)];
        cell = 5;
        ref readonly int ro = ref board.Cells[2];
        int seen = ro;
        int six = await Val(6);
        cell = ref board.Cells[1];
        cell = six;
        ref int cell2 = ref board.Cells[0];
        cell2 += seen;
        var window = RefStructs.Id(new Window(board.Cells));
        int len = RefStructs.Len(window) + window.First;
        len += await Val(1000);
        lock (s_lock) { s_counter += len; }
        int c = await Val(1);
        using (s_lock.EnterScope()) { s_counter += c; }
        return $"{board} seen={seen} len={len} counter={s_counter}";
    }

    static async Task<string> Initializers()
    {
        var b = new Board
        {
            Cells = { [^1] = await Val(9), [0] = await Val(1), [^2] = 8 },
            Tags = { [^1] = await Str("z"), [await Val(0)] = "first" },
            Scores = { ["x"] = await Val(1), [await Str("y")] = 2, ["z"] = await Val(3) + await Val(4) },
            Inner = { X = await Val(42), Items = { await Val(1), 2, await Val(3) } },
        };
        var made = new Board { Cells = [await Val(7), .. await Arr(6, 5)] };
        return $"{b} | {made}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            s_counter = 0;
            Console.WriteLine($"suspend={suspend}");
            foreach (var (name, f) in new (string, Func<Task<string>>)[] { ("params", Params), ("collections", Collections), ("spans", FirstClassSpans), ("refs", RefsAndLocks), ("initializers", Initializers) })
            {
                s_log.Clear();
                Console.WriteLine($"  {name}: {await f()}");
                Console.WriteLine($"    log: {string.Join(" ", s_log)}");
            }
        }
    }
}
