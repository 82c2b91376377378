// Structs with unusual layouts live across awaits, as locals, arguments, results, fields of
// classes and elements of arrays: [InlineArray] buffers of ints, of references and of a struct
// (indexed, written element by element with awaited values and awaited indices, sliced into spans
// between awaits, iterated with foreach), explicit-layout unions whose overlapping fields alias
// each other (an int and a float over the same bytes, a long over two ints), Pack=1 structs whose
// long, double, Guid and decimal fields sit at odd offsets, and an auto-layout struct holding all of
// them at once. The continuation must copy each value byte for byte, whatever its layout.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading.Tasks;

[InlineArray(8)]
struct Eight { private int _e; }

[InlineArray(4)]
struct Names { private string? _n; }

[InlineArray(3)]
struct Pairs { private (long A, string B) _p; }

[StructLayout(LayoutKind.Explicit)]
struct Union
{
    [FieldOffset(0)] public int I;
    [FieldOffset(0)] public float F;
    [FieldOffset(0)] public long L;
    [FieldOffset(4)] public int High;
    [FieldOffset(8)] public short S0;
    [FieldOffset(10)] public byte B2;
    [FieldOffset(11)] public bool Flag;
    public override string ToString() => $"U(L={L:X16} I={I} High={High} S0={S0} B2={B2} Flag={Flag})";
}

[StructLayout(LayoutKind.Sequential, Pack = 1)]
struct Packed
{
    public byte Tag;
    public long Long;
    public byte Pad;
    public double Double;
    public char C;
    public Guid Id;
    public short S;
    public decimal Money;
    public override string ToString() => $"P({Tag},{Long},{Pad},{Double},{C},{Id},{S},{Money}) size={Unsafe.SizeOf<Packed>()}";
}

struct Everything
{
    public Eight Ints;
    public Union U;
    public Packed P;
    public Names N;
    public byte Last;
}

sealed class Holder
{
    public Everything E;
    public Packed[] Packs = new Packed[2];
}

static class Program
{
    static bool s_suspend;
    static async Task<T> Val<T>(T v) { if (s_suspend) await Task.Yield(); return v; }

    static string Show(ReadOnlySpan<int> span) => string.Join(",", span.ToArray());

    static async Task<Eight> FillAsync(Eight e, int start)
    {
        for (int i = 0; i < 8; i++)
        {
            int v = start + await Val(i);
            e[i] = v;
        }
        return e;
    }

    static async Task<string> InlineArrays()
    {
        var e = new Eight();
        e[0] = 1;
        // (C# refuses an element reference held across an await, so the awaits come first)
        int index = await Val(1), value = await Val(2);
        e[index] = value;
        int three = await Val(3);
        e[2] += three;
        e = await FillAsync(e, e[1] * 10);
        int sum = 0;
        foreach (var x in e) sum += x + await Val(0);
        Span<int> slice = e[2..5];
        slice[0] = -1;
        string sliced = Show(slice);
        e[7] = await Val(sum);
        var names = new Names();
        for (int i = 0; i < 4; i++) names[i] = i % 2 == 0 ? await Val($"n{i}") : null;
        if (names[3] is null) { var filled = await Val("filled"); names[3] = filled; }
        var pairs = new Pairs();
        var pair = (await Val(long.MaxValue), await Val("last"));
        pairs[await Val(2)] = pair;
        long five = await Val(5L);
        pairs[0].A = five;
        var copies = new[] { e, await FillAsync(default, 100) };
        return $"ints {Show(e)} sum {sum} slice {sliced} names {string.Join("|", ((ReadOnlySpan<string?>)names).ToArray())} pairs {pairs[0]} {pairs[1]} {pairs[2]} copies {copies[1][7]}";
    }

    static async Task<Union> Roundtrip(Union u, int bump)
    {
        u.High += await Val(bump);
        return u;
    }

    static async Task<string> Unions()
    {
        var u = new Union { F = 1.5f };
        int bitsOfFloat = u.I;
        u.High = await Val(7);
        u.S0 = await Val((short)-2);
        u.Flag = await Val(true);
        u = await Roundtrip(u, 1);
        var before = u.ToString();
        u.L = await Val(-1L);
        return $"float bits {bitsOfFloat:X8} {before} after L=-1: {u}";
    }

    static async Task<Packed> MakePacked(byte tag)
    {
        var p = new Packed { Tag = tag, Long = await Val(long.MinValue + tag), Pad = 0xEE, Double = await Val(Math.PI), C = 'p' };
        p.Id = await Val(new Guid(tag, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
        p.S = await Val((short)-tag);
        p.Money = await Val(12345.678m) * tag;
        return p;
    }

    static async Task<string> PackedStructs()
    {
        var p = await MakePacked(3);
        var h = new Holder();
        h.Packs[1] = await MakePacked(9);
        h.Packs[1].Long += await Val(1L);
        h.E.P = p;
        h.E.Ints = await FillAsync(h.E.Ints, 1000);
        h.E.U.L = await Val(0x0102030405060708L);
        var named = await Val("named");
        h.E.N[1] = named;
        h.E.Last = await Val((byte)255);
        var copy = await Val(h.E);
        return $"{p}\n  {h.Packs[1]}\n  copy: ints {Show(copy.Ints)} {copy.U} {copy.P.Money} {copy.N[1]} {copy.Last}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine($"  {await InlineArrays()}");
            Console.WriteLine($"  {await Unions()}");
            Console.WriteLine($"  {await PackedStructs()}");
        }
    }
}
