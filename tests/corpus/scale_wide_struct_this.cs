// Async instance methods of a 64-field struct that read and write this's fields after awaits (classic
// works on a copy of this, so the caller's value never changes), called on locals, array elements, fields of
// a class and readonly fields, with this's fields as operands below an await.
using System;
using System.Threading.Tasks;

struct Wide
{
    public int F0;
    public long F1;
    public int F2;
    public long F3;
    public int F4;
    public long F5;
    public int F6;
    public long F7;
    public int F8;
    public long F9;
    public int F10;
    public long F11;
    public int F12;
    public long F13;
    public int F14;
    public long F15;
    public int F16;
    public long F17;
    public int F18;
    public long F19;
    public int F20;
    public long F21;
    public int F22;
    public long F23;
    public int F24;
    public long F25;
    public int F26;
    public long F27;
    public int F28;
    public long F29;
    public int F30;
    public long F31;
    public int F32;
    public long F33;
    public int F34;
    public long F35;
    public int F36;
    public long F37;
    public int F38;
    public long F39;
    public int F40;
    public long F41;
    public int F42;
    public long F43;
    public int F44;
    public long F45;
    public int F46;
    public long F47;
    public int F48;
    public long F49;
    public int F50;
    public long F51;
    public int F52;
    public long F53;
    public int F54;
    public long F55;
    public int F56;
    public long F57;
    public int F58;
    public long F59;
    public int F60;
    public long F61;
    public int F62;
    public long F63;
    public async Task<long> Touch(int k)
    {
        F0 += k;
        long before = F0 + F63 + await Program.V(k) + F1;
        F0 = (int)(F1 * 2 + await Program.V(0));
        F8 = (int)(F9 * 2 + await Program.V(8));
        F16 = (int)(F17 * 2 + await Program.V(16));
        F24 = (int)(F25 * 2 + await Program.V(24));
        F32 = (int)(F33 * 2 + await Program.V(32));
        F40 = (int)(F41 * 2 + await Program.V(40));
        F48 = (int)(F49 * 2 + await Program.V(48));
        F56 = (int)(F57 * 2 + await Program.V(56));
        F63 = before;
        await Program.V(1);
        long h = 0;
        h = h * 31 + F0;
        h = h * 31 + F1;
        h = h * 31 + F2;
        h = h * 31 + F3;
        h = h * 31 + F4;
        h = h * 31 + F5;
        h = h * 31 + F6;
        h = h * 31 + F7;
        h = h * 31 + F8;
        h = h * 31 + F9;
        h = h * 31 + F10;
        h = h * 31 + F11;
        h = h * 31 + F12;
        h = h * 31 + F13;
        h = h * 31 + F14;
        h = h * 31 + F15;
        h = h * 31 + F16;
        h = h * 31 + F17;
        h = h * 31 + F18;
        h = h * 31 + F19;
        h = h * 31 + F20;
        h = h * 31 + F21;
        h = h * 31 + F22;
        h = h * 31 + F23;
        h = h * 31 + F24;
        h = h * 31 + F25;
        h = h * 31 + F26;
        h = h * 31 + F27;
        h = h * 31 + F28;
        h = h * 31 + F29;
        h = h * 31 + F30;
        h = h * 31 + F31;
        h = h * 31 + F32;
        h = h * 31 + F33;
        h = h * 31 + F34;
        h = h * 31 + F35;
        h = h * 31 + F36;
        h = h * 31 + F37;
        h = h * 31 + F38;
        h = h * 31 + F39;
        h = h * 31 + F40;
        h = h * 31 + F41;
        h = h * 31 + F42;
        h = h * 31 + F43;
        h = h * 31 + F44;
        h = h * 31 + F45;
        h = h * 31 + F46;
        h = h * 31 + F47;
        h = h * 31 + F48;
        h = h * 31 + F49;
        h = h * 31 + F50;
        h = h * 31 + F51;
        h = h * 31 + F52;
        h = h * 31 + F53;
        h = h * 31 + F54;
        h = h * 31 + F55;
        h = h * 31 + F56;
        h = h * 31 + F57;
        h = h * 31 + F58;
        h = h * 31 + F59;
        h = h * 31 + F60;
        h = h * 31 + F61;
        h = h * 31 + F62;
        h = h * 31 + F63;
        return h;
    }
    public readonly long Sum() { long s = 0; s += F0; s += F1; s += F2; s += F3; s += F4; s += F5; s += F6; s += F7; s += F8; s += F9; s += F10; s += F11; s += F12; s += F13; s += F14; s += F15; s += F16; s += F17; s += F18; s += F19; s += F20; s += F21; s += F22; s += F23; s += F24; s += F25; s += F26; s += F27; s += F28; s += F29; s += F30; s += F31; s += F32; s += F33; s += F34; s += F35; s += F36; s += F37; s += F38; s += F39; s += F40; s += F41; s += F42; s += F43; s += F44; s += F45; s += F46; s += F47; s += F48; s += F49; s += F50; s += F51; s += F52; s += F53; s += F54; s += F55; s += F56; s += F57; s += F58; s += F59; s += F60; s += F61; s += F62; s += F63; return s; }
}

sealed class Box { public Wide W; public readonly Wide R; public Box(Wide w) { W = w; R = w; } }

static class Program
{
    static bool Suspend;

    public static async Task<int> V(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static Wide Make(int s) { var w = new Wide(); w.F0 = s + 0; w.F1 = s + 1; w.F2 = s + 2; w.F3 = s + 3; w.F4 = s + 4; w.F5 = s + 5; w.F6 = s + 6; w.F7 = s + 7; w.F8 = s + 8; w.F9 = s + 9; w.F10 = s + 10; w.F11 = s + 11; w.F12 = s + 12; w.F13 = s + 13; w.F14 = s + 14; w.F15 = s + 15; w.F16 = s + 16; w.F17 = s + 17; w.F18 = s + 18; w.F19 = s + 19; w.F20 = s + 20; w.F21 = s + 21; w.F22 = s + 22; w.F23 = s + 23; w.F24 = s + 24; w.F25 = s + 25; w.F26 = s + 26; w.F27 = s + 27; w.F28 = s + 28; w.F29 = s + 29; w.F30 = s + 30; w.F31 = s + 31; w.F32 = s + 32; w.F33 = s + 33; w.F34 = s + 34; w.F35 = s + 35; w.F36 = s + 36; w.F37 = s + 37; w.F38 = s + 38; w.F39 = s + 39; w.F40 = s + 40; w.F41 = s + 41; w.F42 = s + 42; w.F43 = s + 43; w.F44 = s + 44; w.F45 = s + 45; w.F46 = s + 46; w.F47 = s + 47; w.F48 = s + 48; w.F49 = s + 49; w.F50 = s + 50; w.F51 = s + 51; w.F52 = s + 52; w.F53 = s + 53; w.F54 = s + 54; w.F55 = s + 55; w.F56 = s + 56; w.F57 = s + 57; w.F58 = s + 58; w.F59 = s + 59; w.F60 = s + 60; w.F61 = s + 61; w.F62 = s + 62; w.F63 = s + 63; return w; }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var local = Make(1);
            Console.WriteLine($"{await local.Touch(3)} {local.Sum()}");
            var arr = new[] { Make(2), Make(3) };
            Console.WriteLine($"{await arr[1].Touch(4)} {arr[1].Sum()} {arr[0].Sum()}");
            var box = new Box(Make(5));
            Console.WriteLine($"{await box.W.Touch(5)} {await box.R.Touch(6)} {box.W.Sum()} {box.R.Sum()}");
            var t1 = local.Touch(7);
            local.F0 = 1000;
            Console.WriteLine($"{await t1} {local.Sum()}");
        }
    }
}
