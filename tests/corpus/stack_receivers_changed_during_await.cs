// Receivers and by-reference operands evaluated before an await whose variable is changed while the
// awaited call runs (through a captured local, a field, an array slot): a class receiver is taken
// before the await (the call goes to the old object), a struct receiver is the variable itself after
// it, and an unconstrained T receiver follows whichever T is (class: the old object, struct: the
// variable) for locals, array elements, fields and captured locals; `in`, `ref` and `out` arguments
// next to awaited siblings whose variable the await reassigns; and named arguments written out of
// order around awaits (evaluated as written, passed by position), with the log showing every step.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

interface ITally { void Add(int v); string Show(); }

sealed class RefTally : ITally
{
    private readonly string _name; private int _sum;
    public RefTally(string name) => _name = name;
    public void Add(int v) => _sum += v;
    public string Show() => _name + "=" + _sum;
}

struct ValTally : ITally
{
    public string Name; public int Sum;
    public void Add(int v) => Sum += v;
    public string Show() => Name + "=" + Sum;
}

struct Big { public long A, B, C, D; public override string ToString() => $"{A}/{B}/{C}/{D}"; }

sealed class Owner
{
    public ITally Iface = new RefTally("f0");
    public ValTally Val = new ValTally { Name = "v0" };
    public Big Big;
    public int Counter;
}

static class Program
{
    static bool Suspend;
    static readonly List<string> Log = new();

    static async Task<int> V(string tag, int value, Action? during = null)
    {
        Log.Add(tag);
        if (Suspend) await Task.Yield();
        during?.Invoke();
        return value;
    }

    static int L(string tag, int v) { Log.Add(tag); return v; }

    static string Flush() { var s = string.Join(" ", Log); Log.Clear(); return s; }

    static async Task<string> Generic<T>(T first, Func<string, T> make) where T : ITally
    {
        T local = first;
        T[] arr = { make("a0"), make("a1") };
        local.Add(await V("v", 1, () => local = make("L1")));
        arr[L("i", 0)].Add(await V("v", 2, () => arr[0] = make("A1")));
        var box = new T[1][]; box[0] = arr;
        box[0][L("i", 1)].Add(await V("v", 3, () => box[0] = new[] { make("X0"), make("X1") }));
        return $"{local.Show()} {arr[0].Show()} {arr[1].Show()} {box[0][1].Show()}";
    }

    static async Task<string> Concrete()
    {
        var o = new Owner();
        o.Iface.Add(await V("v", 5, () => o.Iface = new RefTally("f1")));
        o.Val.Add(await V("v", 6, () => o.Val = new ValTally { Name = "v1" }));
        var current = o;
        current.Counter += await V("v", 7, () => current = new Owner { Counter = 100 });
        var vt = new ValTally { Name = "loc" };
        vt.Add(await V("v", 8, () => vt = new ValTally { Name = "loc2", Sum = 50 }));
        ITally rt = new RefTally("r0");
        rt.Add(await V("v", 9, () => rt = new RefTally("r1")));
        return $"{o.Iface.Show()} {o.Val.Show()} {o.Counter} {current.Counter} {vt.Show()} {rt.Show()}";
    }

    static string Show(in Big big, int x, in int y) => $"{big}|{x}|{y}";
    static void Bump(ref int target, int by, ref long other) { target += by; other -= by; }
    static bool Split(int value, out int high, out int low) { high = value / 10; low = value % 10; return true; }
    static string Named(int a, int b, int c, string d = "d") => $"a{a} b{b} c{c} {d}";

    static async Task<string> ByRefs()
    {
        var o = new Owner { Big = new Big { A = 1, B = 2 } };
        var arr = new[] { 10, 20, 30 };
        Big local = new Big { C = 3 };
        string s1 = Show(in o.Big, await V("v", 1, () => o.Big.A = 99), in arr[L("i", 2)]);
        string s2 = Show(in local, await V("v", 2, () => local.D = 4), in arr[0]);
        string s3 = Show(in local, L("x", 3), in arr[await V("i", 1, () => arr[1] = 21)]);
        long wide = 100;
        Bump(ref arr[L("i", 0)], await V("v", 5, () => arr[0] = 1000), ref wide);
        Bump(ref o.Counter, await V("v", 6, () => o = new Owner()), ref wide);
        bool ok = Split(await V("v", 42), out arr[L("i", 1)], out o.Counter);
        return $"{s1} {s2} {s3} {arr[0]} {arr[1]} {o.Counter} {wide} {ok}";
    }

    static async Task<string> NamedArgs()
    {
        string n1 = Named(c: await V("c", 3), a: L("a", 1), b: await V("b", 2));
        string n2 = Named(b: L("b", 5), c: L("c", 6), a: await V("a", 4), d: $"d{await V("d", 7)}");
        string n3 = Named(L("a", 8), c: await V("c", 9), b: L("b", 10));
        return $"{n1}; {n2}; {n3}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine($"  class T: {await Generic<ITally>(new RefTally("L0"), n => new RefTally(n))} | {Flush()}");
            Console.WriteLine($"  struct T: {await Generic(new ValTally { Name = "L0" }, n => new ValTally { Name = n })} | {Flush()}");
            Console.WriteLine($"  concrete: {await Concrete()} | {Flush()}");
            Console.WriteLine($"  byrefs: {await ByRefs()} | {Flush()}");
            Console.WriteLine($"  named: {await NamedArgs()} | {Flush()}");
        }
    }
}
