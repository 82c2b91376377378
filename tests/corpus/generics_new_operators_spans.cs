// Newer C# features inside generic async methods, where shared (canonical) code gets its types
// from a generic context: params ReadOnlySpan<T> callees called with awaited T arguments (a generic
// inline-array buffer in the async method), collection expressions of T with spreads of awaited
// sequences into T[], List<T> and ReadOnlySpan<T>, C# 11 checked operators through static abstract
// interface members (INumber<T>) with awaited operands, C# 14 user-defined compound assignment
// operators and increment operators declared in an interface and applied to T locals, T fields of a
// class and T array elements with awaited right sides (struct and class type arguments), async
// methods in generic extension blocks whose receiver is read after a suspension, the field keyword
// in a generic class, switch statements whose case guards await, switch expressions with awaiting
// arms inside argument lists, and null-conditional assignment through a class-constrained T.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Numerics;
using System.Threading.Tasks;

interface IAccum<TSelf> where TSelf : IAccum<TSelf>
{
    void operator +=(int x);
    void operator ++();
    int Total { get; }
}
struct SAcc : IAccum<SAcc> { public int T; public void operator +=(int x) { T += x; } public void operator ++() { T += 100; } public int Total => T; }
sealed class CAcc : IAccum<CAcc> { public int T; public void operator +=(int x) { T += x; } public void operator ++() { T += 100; } public int Total => T; }

sealed class Holder<T> where T : IAccum<T>
{
    public T Item;
    public T[] Items;
    public Holder(T item, T[] items) { Item = item; Items = items; }
}

sealed class Cell<T>
{
    public int Sets;
    public T? Value { get => field; set { Sets++; field = value; } }
    public List<T> Log => field ??= new();
    public Cell<T>? Next;
}

static class GenericExtensions
{
    extension<T>(Cell<T> cell)
    {
        public async Task<string> DescribeAsync(Func<T, Task<string>> f)
        {
            string first = cell.Value is null ? "null" : await f(cell.Value);
            await Program.Pause();
            return $"{first}/{cell.Sets}/{cell.Log.Count}";
        }
        public bool HasValue => cell.Value is not null;
    }

    extension<T>(IEnumerable<T> seq) where T : INumber<T>
    {
        public async Task<T> SumAsync()
        {
            T total = T.Zero;
            foreach (var x in seq) { await Program.Pause(); total = checked(total + x); }
            return total;
        }
    }
}

static class Program
{
    static bool s_suspend;
    public static async Task Pause() { if (s_suspend) await Task.Yield(); }
    static async Task<T> Get<T>(T x) { await Pause(); return x; }
    static async Task<IEnumerable<T>> Many<T>(params T[] xs) { await Pause(); return xs; }

    static string Join<T>(params ReadOnlySpan<T> xs) { var parts = new List<string>(); foreach (var x in xs) parts.Add(x?.ToString() ?? "null"); return $"{xs.Length}:" + string.Join(",", parts); }

    static async Task<string> Spans<T>(T a, T b)
    {
        string j1 = Join(await Get(a), b, await Get(b));
        string j2 = Join<T>();
        T[] arr = [a, .. await Many(b, a), await Get(b)];
        List<T> list = [.. arr, .. await Many<T>()];
        ReadOnlySpan<T> span = [await Get(a), .. list];
        string j3 = Join(span);
        return $"{j1} {j2} {arr.Length} {list.Count} {j3}";
    }

    static async Task<string> Checked<T>(T a, T b) where T : INumber<T>
    {
        T u = unchecked(a + await Get(b));
        string c;
        try { c = checked(a + await Get(b) * await Get(b)).ToString()!; }
        catch (OverflowException) { c = "overflow"; }
        T sum = await (await Many(a, b, T.One)).SumAsync();
        string s2;
        try { s2 = (await Many(a, a, a)).SumAsync().Result.ToString()!; } catch (AggregateException e) when (e.InnerException is OverflowException) { s2 = "overflow"; }
        return $"{u} {c} {sum} {s2}";
    }

    static async Task<string> Accum<T>(T seed, Func<T> make) where T : IAccum<T>
    {
        T local = seed;
        local += await Get(3);
        local++;
        var h = new Holder<T>(make(), [make(), make()]);
        h.Item += await Get(5);
        h.Items[await Get(1)] += await Get(7);
        h.Items[0]++;
        int i = 0;
        h.Items[i++] += await Get(9) + i;
        return $"{local.Total} {h.Item.Total} {h.Items[0].Total},{h.Items[1].Total} i={i}";
    }

    static async Task<string> Cells<T>(T v) where T : class
    {
        var c = new Cell<T> { Next = new Cell<T>() };
        c.Value ??= await Get(v);
        c.Value ??= await Get(v);
        c.Next?.Value = await Get(v);
        c.Next?.Next?.Value = await Get(v);
        c.Log.Add(await Get(v));
        string d = await c.DescribeAsync(async x => { await Pause(); return x.ToString()!.ToUpperInvariant(); });
        return $"{d} {c.HasValue} {c.Next!.HasValue} {c.Next.Sets}";
    }

    static async Task<string> Classify<T>(T value, int k)
    {
        string r;
        switch (value)
        {
            case int n when n > await Get(10): r = "big"; break;
            case int n when await Get(n % 2) == 0: r = "even"; break;
            case string s when s.Length > await Get(2) && await Get(s[0]) == 'a': r = "a-word"; break;
            case null: r = "null"; break;
            default: r = $"other({await Get(value?.GetType().Name)})"; break;
        }
        return string.Join("|", r, k switch { 0 => await Get("zero"), 1 when await Get(true) => "one", var x when x < 0 => $"neg{await Get(-x)}", _ => (await Get(k * 10)).ToString() }, Join(k, await Get(k) switch { > 1 => await Get(2), _ => 0 }));
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine($"  spans: {await Spans(1, 2)} | {await Spans("x", "y")} | {await Spans<object?>(null, 3.5)}");
            Console.WriteLine($"  checked: {await Checked<byte>(200, 10)} | {await Checked<int>(int.MaxValue - 5, 2)} | {await Checked(1.5m, 2m)}");
            Console.WriteLine($"  accum: {await Accum(new SAcc(), () => new SAcc())} | {await Accum(new CAcc(), () => new CAcc())}");
            Console.WriteLine($"  cells: {await Cells("v")} | {await Cells(new Uri("http://h/"))}");
            Console.WriteLine($"  classify: {await Classify(11, 0)} {await Classify(4, 1)} {await Classify(3, -2)} {await Classify("abc", 5)} {await Classify("xyz", 2)} {await Classify<string?>(null, 0)} {await Classify(2.5, 3)}");
        }
    }
}
