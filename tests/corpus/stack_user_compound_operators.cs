// Operators applied with awaited operands, where the target must be located before the await and
// updated after it: C# 14 user-defined compound assignment operators (public void operator +=) and
// instance increment operators (operator ++) on classes, on struct locals, struct fields reached
// through a class, and struct array elements (the
// array and index are evaluated before the await, the element located after it), C# 11 checked user-defined operators in checked and
// unchecked contexts with awaited operands (overflow caught), compound assignment to array elements
// across awaits, ref-returning indexers and methods between awaits, ??= on properties and indexers, tuple deconstruction into
// fields, properties, array elements and indexers from awaited values, with on structs with awaited
// initializers, and OverloadResolutionPriority choosing the overload called with awaited arguments.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

sealed class Acc
{
    public int Total; public int Ops;
    public void operator +=(int x) { Program.Log($"Acc+={x}"); Total += x; Ops++; }
    public void operator -=(int x) { Program.Log($"Acc-={x}"); Total -= x; Ops++; }
    public void operator ++() { Total++; Ops++; }
    public override string ToString() => $"{Total}/{Ops}";
}

struct Vec
{
    public int X, Y;
    public Vec(int x, int y) { X = x; Y = y; }
    public void operator +=(Vec o) { Program.Log($"Vec({X},{Y})+=({o.X},{o.Y})"); X += o.X; Y += o.Y; }
    public void operator *=(int k) { X *= k; Y *= k; }
    public void operator ++() { X++; }
    public static Vec operator +(Vec a, Vec b) => new Vec(a.X + b.X, a.Y + b.Y);
    public override string ToString() => $"({X},{Y})";
}

readonly struct Small
{
    public readonly byte V;
    public Small(int v) { V = (byte)v; }
    public static Small operator +(Small a, Small b) => new Small(a.V + b.V);
    public static Small operator checked +(Small a, Small b) => new Small(checked((byte)(a.V + b.V)));
    public static Small operator -(Small a) => new Small(-a.V);
    public static Small operator checked -(Small a) => a.V == 0 ? a : throw new OverflowException($"neg {a.V}");
    public static explicit operator Small(int v) => new Small(v);
    public static explicit operator checked Small(int v) => new Small(checked((byte)v));
    public override string ToString() => V.ToString();
}

sealed class Store
{
    private readonly int[] data = new int[4];
    private readonly Vec[] vecs = new Vec[2];
    private readonly Dictionary<string, string?> map = new();
    public ref int this[int i] { get { Program.Log($"ref[{i}]"); return ref data[i]; } }
    public ref Vec VecAt(int i) { Program.Log($"VecAt({i})"); return ref vecs[i]; }
    public string? this[string k] { get { Program.Log($"get[{k}]"); return map.GetValueOrDefault(k); } set { Program.Log($"set[{k}]={value}"); map[k] = value; } }
    public string? Name { get { Program.Log("get_Name"); return field; } set { Program.Log($"set_Name={value}"); field = value; } }
    public Vec V;
    public int A { get; set; }
    public override string ToString() => $"data={string.Join(",", data)} vecs={vecs[0]},{vecs[1]} V={V} A={A} Name={Name}";
}

record struct Pair(int L, string R);

static class Overloads
{
    public static string Pick(int x, long y) => $"int,long {x + y}";
    [OverloadResolutionPriority(1)]
    public static string Pick(long x, int y) => $"long,int {x + y}";
    public static string Show(params int[] xs) => $"array {xs.Length}";
    [OverloadResolutionPriority(1)]
    public static string Show(params ReadOnlySpan<int> xs) => $"span {xs.Length}";
}

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();
    public static void Log(string s) => s_log.Add(s);
    static async Task<int> Val(int x) { Log($"Val({x})"); if (s_suspend) await Task.Yield(); return x; }
    static async Task<string> Str(string s) { Log($"Str({s})"); if (s_suspend) await Task.Delay(1); return s; }
    static async Task<Vec> V(int x, int y) { Log($"V({x},{y})"); if (s_suspend) await Task.Yield(); return new Vec(x, y); }
    static int Idx(int i) { Log($"Idx({i})"); return i; }

    static async Task<string> UserCompound()
    {
        var acc = new Acc();
        acc += await Val(5);
        acc -= await Val(2);
        acc++;
        Acc? maybe = null;
        var local = new Vec(1, 1);
        local += await V(2, 3);
        local *= await Val(2);
        local++;
        var store = new Store();
        store.V += await V(10, 20);
        var arr = new Vec[3];
        arr[Idx(1)] += await V(4, 5);
        arr[Idx(1)] += await V(1, 1);
        var w = await V(7, 8);
        store.VecAt(Idx(0)) += w;
        store.VecAt(1)++;
        return $"{acc} {local} {store.V} {arr[0]},{arr[1]},{arr[2]} {store}";
    }

    static async Task<string> Checked()
    {
        var a = new Small(200);
        var u = a + new Small(await Val(100));
        string c1, c2, c3;
        try { var r = checked(a + new Small(await Val(100))); c1 = r.ToString(); } catch (OverflowException) { c1 = "overflow"; }
        try { var r = checked((Small)(await Val(300))); c2 = r.ToString(); } catch (OverflowException) { c2 = "overflow"; }
        try { checked { var r = -new Small(await Val(3)); c3 = r.ToString(); } } catch (OverflowException e) { c3 = e.Message; }
        var uc = unchecked((Small)(await Val(300)));
        Small s = new Small(1);
        checked { s += new Small(await Val(2)); }
        return $"{u} {c1} {c2} {c3} {uc} {s}";
    }

    static async Task<string> Elements()
    {
        var store = new Store();
        var arr = new int[] { 1, 2, 3 };
        int i = 0;
        arr[i++] += await Val(10);
        arr[^1] *= await Val(3);
        int seven = await Val(7);
        store[Idx(2)] += seven;
        store[Idx(2)] += seven + store[Idx(0)];
        int nine = await Val(9);
        store[Idx(3)] = nine - 1;
        ref int r = ref store[1];
        r = 4;
        store["k"] ??= await Str("first");
        store["k"] ??= await Str("second");
        store.Name ??= await Str("nm");
        store.Name ??= await Str("nm2");
        var list = new List<int?> { null, 1 };
        list[0] ??= await Val(5);
        list[1] ??= await Val(6);
        return $"{string.Join(",", arr)} i={i} {store} k={store["k"]} list={list[0]},{list[1]}";
    }

    static int s_fieldA;
    static int PropB { get; set; }
    static async Task<string> Deconstruct()
    {
        var store = new Store();
        var arr = new int[3];
        int i = 0;
        (s_fieldA, PropB, arr[i++], store.A) = (await Val(1), await Val(2), await Val(3), await Val(4));
        (store.A, arr[i]) = (await Val(5), await Val(6));
        (store["x"], store.Name) = (await Str("X"), await Str("N"));
        (store.V.X, store.V.Y) = await Task.FromResult((await Val(7), 8));
        var p = new Pair(1, "r");
        var q = p with { L = await Val(11) };
        var v = store.V with { Y = await Val(12) + store.V.X };
        var (l, rr) = q with { R = await Str("rr") };
        (arr[0], arr[1]) = (arr[1], arr[0]);
        return $"{s_fieldA} {PropB} {string.Join(",", arr)} i={i} {store} x={store["x"]} {p} {q} {v} {l}{rr}";
    }

    static async Task<string> Priority()
    {
        string a = Overloads.Pick(await Val(1), await Val(2));
        string b = Overloads.Show(await Val(1), await Val(2), 3);
        string c = Overloads.Show();
        return $"{a}; {b}; {c}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            foreach (var (name, f) in new (string, Func<Task<string>>)[] { ("compound", UserCompound), ("checked", Checked), ("elements", Elements), ("deconstruct", Deconstruct), ("priority", Priority) })
            {
                s_log.Clear();
                Console.WriteLine($"  {name}: {await f()}");
                Console.WriteLine($"    log: {string.Join(" ", s_log)}");
            }
        }
    }
}
