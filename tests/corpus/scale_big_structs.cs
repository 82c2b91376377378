// Large value types across awaits: a 64-field struct mutated through its methods between awaits,
// an [InlineArray(256)] buffer local and field, nested struct-of-structs (3 levels), arrays of big structs, and
// a generic method with 12 type parameters holding a local of each across awaits.
using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

[InlineArray(256)]
struct Buf256 { private int _e0; }

struct Wide
{
    public long F0;
    public int F1;
    public double F2;
    public string F3;
    public byte F4;
    public decimal F5;
    public long F6;
    public int F7;
    public double F8;
    public string F9;
    public byte F10;
    public decimal F11;
    public long F12;
    public int F13;
    public double F14;
    public string F15;
    public byte F16;
    public decimal F17;
    public long F18;
    public int F19;
    public double F20;
    public string F21;
    public byte F22;
    public decimal F23;
    public long F24;
    public int F25;
    public double F26;
    public string F27;
    public byte F28;
    public decimal F29;
    public long F30;
    public int F31;
    public double F32;
    public string F33;
    public byte F34;
    public decimal F35;
    public long F36;
    public int F37;
    public double F38;
    public string F39;
    public byte F40;
    public decimal F41;
    public long F42;
    public int F43;
    public double F44;
    public string F45;
    public byte F46;
    public decimal F47;
    public long F48;
    public int F49;
    public double F50;
    public string F51;
    public byte F52;
    public decimal F53;
    public long F54;
    public int F55;
    public double F56;
    public string F57;
    public byte F58;
    public decimal F59;
    public long F60;
    public int F61;
    public double F62;
    public string F63;
    public void Bump(int k)
    {
        F0 += k + 0;
        F1 += k + 1;
        F2 += k + 2;
        F3 = (F3 ?? "").Length > 6 ? "r" : F3 + k;
        F4 = (byte)(F4 + k);
        F5 += k + 5;
        F6 += k + 6;
        F7 += k + 7;
        F8 += k + 8;
        F9 = (F9 ?? "").Length > 6 ? "r" : F9 + k;
        F10 = (byte)(F10 + k);
        F11 += k + 11;
        F12 += k + 12;
        F13 += k + 13;
        F14 += k + 14;
        F15 = (F15 ?? "").Length > 6 ? "r" : F15 + k;
        F16 = (byte)(F16 + k);
        F17 += k + 17;
        F18 += k + 18;
        F19 += k + 19;
        F20 += k + 20;
        F21 = (F21 ?? "").Length > 6 ? "r" : F21 + k;
        F22 = (byte)(F22 + k);
        F23 += k + 23;
        F24 += k + 24;
        F25 += k + 25;
        F26 += k + 26;
        F27 = (F27 ?? "").Length > 6 ? "r" : F27 + k;
        F28 = (byte)(F28 + k);
        F29 += k + 29;
        F30 += k + 30;
        F31 += k + 31;
        F32 += k + 32;
        F33 = (F33 ?? "").Length > 6 ? "r" : F33 + k;
        F34 = (byte)(F34 + k);
        F35 += k + 35;
        F36 += k + 36;
        F37 += k + 37;
        F38 += k + 38;
        F39 = (F39 ?? "").Length > 6 ? "r" : F39 + k;
        F40 = (byte)(F40 + k);
        F41 += k + 41;
        F42 += k + 42;
        F43 += k + 43;
        F44 += k + 44;
        F45 = (F45 ?? "").Length > 6 ? "r" : F45 + k;
        F46 = (byte)(F46 + k);
        F47 += k + 47;
        F48 += k + 48;
        F49 += k + 49;
        F50 += k + 50;
        F51 = (F51 ?? "").Length > 6 ? "r" : F51 + k;
        F52 = (byte)(F52 + k);
        F53 += k + 53;
        F54 += k + 54;
        F55 += k + 55;
        F56 += k + 56;
        F57 = (F57 ?? "").Length > 6 ? "r" : F57 + k;
        F58 = (byte)(F58 + k);
        F59 += k + 59;
        F60 += k + 60;
        F61 += k + 61;
        F62 += k + 62;
        F63 = (F63 ?? "").Length > 6 ? "r" : F63 + k;
    }
    public readonly long Hash()
    {
        long h = 0;
        h = h * 31 + F0;
        h = h * 31 + F1;
        h = h * 31 + (long)F2;
        h = h * 31 + (F3?.Length ?? -1);
        h = h * 31 + F4;
        h = h * 31 + (long)F5;
        h = h * 31 + F6;
        h = h * 31 + F7;
        h = h * 31 + (long)F8;
        h = h * 31 + (F9?.Length ?? -1);
        h = h * 31 + F10;
        h = h * 31 + (long)F11;
        h = h * 31 + F12;
        h = h * 31 + F13;
        h = h * 31 + (long)F14;
        h = h * 31 + (F15?.Length ?? -1);
        h = h * 31 + F16;
        h = h * 31 + (long)F17;
        h = h * 31 + F18;
        h = h * 31 + F19;
        h = h * 31 + (long)F20;
        h = h * 31 + (F21?.Length ?? -1);
        h = h * 31 + F22;
        h = h * 31 + (long)F23;
        h = h * 31 + F24;
        h = h * 31 + F25;
        h = h * 31 + (long)F26;
        h = h * 31 + (F27?.Length ?? -1);
        h = h * 31 + F28;
        h = h * 31 + (long)F29;
        h = h * 31 + F30;
        h = h * 31 + F31;
        h = h * 31 + (long)F32;
        h = h * 31 + (F33?.Length ?? -1);
        h = h * 31 + F34;
        h = h * 31 + (long)F35;
        h = h * 31 + F36;
        h = h * 31 + F37;
        h = h * 31 + (long)F38;
        h = h * 31 + (F39?.Length ?? -1);
        h = h * 31 + F40;
        h = h * 31 + (long)F41;
        h = h * 31 + F42;
        h = h * 31 + F43;
        h = h * 31 + (long)F44;
        h = h * 31 + (F45?.Length ?? -1);
        h = h * 31 + F46;
        h = h * 31 + (long)F47;
        h = h * 31 + F48;
        h = h * 31 + F49;
        h = h * 31 + (long)F50;
        h = h * 31 + (F51?.Length ?? -1);
        h = h * 31 + F52;
        h = h * 31 + (long)F53;
        h = h * 31 + F54;
        h = h * 31 + F55;
        h = h * 31 + (long)F56;
        h = h * 31 + (F57?.Length ?? -1);
        h = h * 31 + F58;
        h = h * 31 + (long)F59;
        h = h * 31 + F60;
        h = h * 31 + F61;
        h = h * 31 + (long)F62;
        h = h * 31 + (F63?.Length ?? -1);
        return h;
    }
}

struct Inner { public Wide W; public Buf256 B; public int Tag; }
struct Middle { public Inner A, B; public string Name; }
struct Outer { public Middle M1, M2; public long Stamp; }

static class Program
{
    static bool Suspend;

    static async Task<int> V(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<long> WideLocal()
    {
        var w = new Wide();
        w.F3 = "x";
        for (int i = 0; i < 5; i++)
        {
            w.Bump(await V(i));
            var copy = w;
            w.F0 += await V(10) + copy.F1;
            copy.Bump(1);
            w.F63 = copy.F63 + await V(2);
        }
        return w.Hash();
    }

    static async Task<long> Buffers(int n)
    {
        var b = new Buf256();
        for (int i = 0; i < 256; i++) b[i] = i;
        for (int r = 0; r < n; r++)
        {
            int idx = await V(r * 37 % 256);
            int add = await V(r) * 3;
            b[idx] += add;
            b[255 - idx] ^= b[idx];
        }
        long h = 0;
        foreach (var x in b) h = h * 31 + x;
        return h;
    }

    static async Task<Outer> Build(int seed)
    {
        var o = new Outer { Stamp = seed };
        o.M1.Name = "m1";
        o.M1.A.Tag = await V(seed);
        o.M1.A.W.Bump(await V(1));
        int v200 = await V(200);
        o.M2.B.B[200] = v200;
        o.M2.B.W.F3 = "deep" + await V(seed);
        o.M1.B.W = o.M1.A.W;
        o.M1.B.W.Bump(await V(2));
        o.M2.Name = o.M1.Name + await V(3);
        return o;
    }

    static async Task<long> Nested()
    {
        var o = await Build(4);
        var arr = new Outer[3];
        arr[1] = o;
        int v77 = await V(77);
        arr[1].M2.B.B[7] = v77;
        arr[2].M1.A.W.Bump(await V(5));
        arr[0] = await Build(await V(9));
        long h = o.Stamp + o.M1.A.Tag + o.M2.B.B[200] + o.M2.B.W.F3.Length + o.M1.B.W.Hash() + o.M2.Name.Length;
        foreach (var x in arr) h = h * 7 + x.M1.A.W.Hash() + x.M2.B.B[7] + x.Stamp;
        return h;
    }

    static async Task<string> Many<T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11>(T0 p0, T1 p1, T2 p2, T3 p3, T4 p4, T5 p5, T6 p6, T7 p7, T8 p8, T9 p9, T10 p10, T11 p11)
    {
        T0 l0 = p1 is T0 x0 ? x0 : p0;
        T1 l1 = p2 is T1 x1 ? x1 : p1;
        T2 l2 = p3 is T2 x2 ? x2 : p2;
        T3 l3 = p4 is T3 x3 ? x3 : p3;
        T4 l4 = p5 is T4 x4 ? x4 : p4;
        T5 l5 = p6 is T5 x5 ? x5 : p5;
        T6 l6 = p7 is T6 x6 ? x6 : p6;
        T7 l7 = p8 is T7 x7 ? x7 : p7;
        T8 l8 = p9 is T8 x8 ? x8 : p8;
        T9 l9 = p10 is T9 x9 ? x9 : p9;
        T10 l10 = p11 is T10 x10 ? x10 : p10;
        T11 l11 = p0 is T11 x11 ? x11 : p11;
        await V(0);
        var s = "";
        s += l0?.ToString() + "|";
        await V(0);
        s += l1?.ToString() + "|";
        s += l2?.ToString() + "|";
        s += l3?.ToString() + "|";
        await V(3);
        s += l4?.ToString() + "|";
        s += l5?.ToString() + "|";
        s += l6?.ToString() + "|";
        await V(6);
        s += l7?.ToString() + "|";
        s += l8?.ToString() + "|";
        s += l9?.ToString() + "|";
        await V(9);
        s += l10?.ToString() + "|";
        s += l11?.ToString() + "|";
        (l0, l11) = (await V(1) > 0 ? l0 : default!, l11 is null ? l11 : l11);
        return s + typeof(T5).Name + l11;
    }

    static async Task<T> Hold<T>(T value, int k)
    {
        T copy = value;
        await V(k);
        return copy;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await WideLocal());
            Console.WriteLine(await Buffers(300));
            Console.WriteLine(await Nested());
            Console.WriteLine(await Many(1, "two", 3.5, (byte)4, 5L, 'c', (short)7, 8m, new Wide { F0 = 9 }.F0, (int?)null, Guid.Empty, "last"));
            var big = new Outer { Stamp = 99 };
            big.M1.A.B[255] = 17;
            var back = await Hold(big, 1);
            Console.WriteLine(back.Stamp + back.M1.A.B[255]);
        }
    }
}
