// Awaits inside expressions whose other operands are already on the stack: compound assignments
// to array elements, struct fields reached through a class, indexers and ??=, tuples and
// deconstruction, switch expressions and patterns, collection initializers and expressions with
// spreads, null-conditional arithmetic, checked blocks, and a stackalloc'd span used between awaits.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

struct Counter { public int Value; public int[] Slots; }
class Holder { public Counter C; public int? Maybe; public string? Name; public List<int> Items = new(); public int this[int i] { get => Items[i]; set => Items[i] = value; } }

static class Program
{
    static bool s_suspend;
    static async Task<int> Val(int x) { if (s_suspend) await Task.Yield(); return x; }
    static async Task<string?> Str(string? s) { if (s_suspend) await Task.Delay(1); return s; }

    static async Task<string> Compound()
    {
        var arr = new int[] { 1, 2, 3 };
        int i = 1;
        arr[i++] += await Val(10);
        var h = new Holder { C = new Counter { Slots = new int[2] } };
        h.C.Value += await Val(5);
        h.C.Slots[1] -= await Val(7);
        h.Maybe ??= await Val(42);
        h.Name ??= await Str("n");
        h.Items.Add(await Val(1)); h.Items.Add(2);
        h[0] += await Val(100);
        var t = (a: await Val(1), b: await Val(2));
        (int p, int q) = (await Val(3), await Val(4));
        string sw = await Val(3) switch { 1 => "one", 3 => $"three{await Str("!")}", _ => "other" };
        object o = await Val(9);
        string pat = o is int k && k > await Val(5) ? "big" : "small";
        var list = new List<int> { await Val(1), await Val(2), await Val(3) };
        int[] coll = [await Val(7), .. list, await Val(8)];
        string? maybe = null;
        int? len = maybe?.Length + await Val(1);
        checked { i = i + await Val(1); }
        long fp = 0;
        fp = arr[0] + arr[1];
        fp += await Val(1);
        Span<int> span = stackalloc int[2]; span[0] = 5; int spanSum = span[0];
        spanSum += await Val(1);
        return $"{string.Join(",", arr)} {h.C.Value} {h.C.Slots[1]} {h.Maybe} {h.Name} {h[0]} {t.a}{t.b} {p}{q} {sw} {pat} {string.Join(",", coll)} {len?.ToString() ?? "null"} {i} {fp} {spanSum}";
    }

    static async Task<int> Deep(int n) => n == 0 ? await Val(0) : 1 + await Deep(n - 1) * 1;

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}: {await Compound()} {await Deep(50)}");
        }
    }
}
