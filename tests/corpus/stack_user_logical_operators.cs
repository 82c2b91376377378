// User-defined conditional logical operators (operator true/false with & and |) whose right
// operand awaits, so the left struct or class operand sits on the stack, duplicated for the
// operator true/false test, across the await and meets the short-circuit path at a join; the same
// with lifted nullable operands (Tri? && await ...), nullable bool & and | with awaited operands
// (three-valued logic), user-defined implicit and explicit conversions applied to awaited values in
// argument lists, ?? between user structs and awaited fallbacks, and shifts of long, nint and
// Int128 by awaited counts; every operator call is logged so short-circuiting shows.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

readonly struct Tri
{
    public readonly int State; // -1 false, 0 unknown, 1 true
    public Tri(int state) => State = state;
    public static bool operator true(Tri t) { Program.Log.Add($"true({t})"); return t.State > 0; }
    public static bool operator false(Tri t) { Program.Log.Add($"false({t})"); return t.State < 0; }
    public static Tri operator &(Tri a, Tri b) { Program.Log.Add($"{a}&{b}"); return new Tri(Math.Min(a.State, b.State)); }
    public static Tri operator |(Tri a, Tri b) { Program.Log.Add($"{a}|{b}"); return new Tri(Math.Max(a.State, b.State)); }
    public static implicit operator Tri(bool b) { Program.Log.Add($"conv({b})"); return new Tri(b ? 1 : -1); }
    public static explicit operator int(Tri t) => t.State * 10;
    public override string ToString() => State switch { 1 => "T", -1 => "F", _ => "U" };
}

sealed class Flag
{
    public readonly string Name; public readonly bool On;
    public Flag(string name, bool on) { Name = name; On = on; }
    public static bool operator true(Flag f) { Program.Log.Add("true:" + f.Name); return f.On; }
    public static bool operator false(Flag f) { Program.Log.Add("false:" + f.Name); return !f.On; }
    public static Flag operator &(Flag a, Flag b) => new(a.Name + "&" + b.Name, a.On && b.On);
    public static Flag operator |(Flag a, Flag b) => new(a.Name + "|" + b.Name, a.On || b.On);
    public override string ToString() => Name + "=" + On;
}

readonly struct Meters
{
    public readonly double Value;
    public Meters(double v) => Value = v;
    public static implicit operator Meters(int cm) { Program.Log.Add("cm" + cm); return new Meters(cm / 100.0); }
    public static explicit operator Meters(string s) { Program.Log.Add("parse"); return new Meters(double.Parse(s)); }
    public static Meters operator +(Meters a, Meters b) => new(a.Value + b.Value);
    public override string ToString() => Value + "m";
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
    static string Pair(object a, object b, object c) => $"{a},{b},{c}";

    static async Task Structs()
    {
        foreach (int left in new[] { -1, 0, 1 })
        {
            var x = new Tri(left);
            Tri and = x && await V("r", new Tri(1));
            Tri or = x || await V("r", new Tri(-1));
            Tri mixed = L("a", x) && (await V("r", new Tri(0)) || L("c", new Tri(1)));
            string args = Pair(L("p", 1), x && await V("r", true), (int)(x || await V("r", new Tri(0))));
            Console.WriteLine($"  tri {x}: {and} {or} {mixed} {args} | {Flush()}");
        }
        Tri? none = null, yes = new Tri(1);
        Tri? l1 = none & await V("r", (Tri?)new Tri(1));
        Tri? l2 = yes | await V("r", (Tri?)null);
        Tri? l3 = yes & await V("r", (Tri?)new Tri(-1));
        Console.WriteLine($"  lifted: {l1?.ToString() ?? "null"} {l2?.ToString() ?? "null"} {l3} | {Flush()}");
    }

    static async Task Classes()
    {
        var on = new Flag("on", true); var off = new Flag("off", false);
        Flag f1 = on && await V("r", new Flag("x", true));
        Flag f2 = off && await V("r", new Flag("y", true));
        Flag f3 = on || await V("r", new Flag("z", false));
        Flag f4 = (off || await V("r", new Flag("w", true))) && L("k", on);
        Console.WriteLine($"  flags: {f1} {f2} {f3} {f4} | {Flush()}");
        if (off || await V("cond", on)) Log.Add("taken");
        while (L("loop", off) || await V("w", off)) Log.Add("never");
        Console.WriteLine($"  conditions: {Flush()}");
    }

    static async Task NullableBools()
    {
        bool?[] values = { true, false, null };
        foreach (var a in values)
        {
            var row = new List<string>();
            foreach (var b in values)
            {
                bool? and = a & await V("", b);
                bool? or = a | await V("", b);
                bool? xor = a ^ await V("", b);
                row.Add($"{Show(and)}{Show(or)}{Show(xor)}");
            }
            Console.WriteLine($"  bool? {Show(a)}: {string.Join(" ", row)}");
        }
        Log.Clear();
    }

    static string Show(bool? b) => b switch { true => "T", false => "F", null => "N" };

    static async Task Conversions()
    {
        Meters m1 = L("base", new Meters(1)) + await V("v", 250);
        Meters m2 = (Meters)await V("s", "0.5") + L("k", 30);
        Meters? maybe = null;
        Meters m3 = maybe ?? await V("fallback", 125);
        Meters? some = new Meters(2);
        Meters m4 = some ?? await V("unused", 1);
        string args = Pair(m1, (Meters)await V("s", "3.25"), L("x", (Meters)7) + await V("v", 3));
        Console.WriteLine($"  meters: {m1} {m2} {m3} {m4} {args} | {Flush()}");
        long wide = 1;
        wide = (wide << await V("n", 40)) | (L("b", 3L) << await V("n", 2));
        nint native = L("n", (nint)(-256)) >> await V("s", 4);
        Int128 huge = (Int128)L("h", 5) << await V("s", 100);
        ulong rot = ulong.RotateLeft(L("r", 0x8000_0000_0000_0001UL), await V("s", 4));
        uint logical = L("u", 0xF000_0000u) >>> await V("s", 28);
        int arith = L("i", int.MinValue) >> await V("s", 31);
        Console.WriteLine($"  shifts: {wide} {native} {huge} {rot:X} {logical} {arith} | {Flush()}");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            await Structs();
            await Classes();
            await NullableBools();
            await Conversions();
        }
    }
}
