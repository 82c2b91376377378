// many locals of many types live across awaits and modified between them: int, long, double,
// decimal, string, char, bool, byte, float, structs, nullable, arrays, tuples, DateTime, TimeSpan,
// Guid, enums, object and interface references.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

enum Color : byte { Red = 1, Green = 2, Blue = 4 }

struct Point
{
    public int X;
    public long Y;
    public string Tag;
    public Point(int x, long y, string tag) { X = x; Y = y; Tag = tag; }
    public override string ToString() => $"{Tag}({X},{Y})";
}

static class Program
{
    static bool Suspend;

    static async Task Tick()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<int> I(int v)
    {
        if (Suspend) await Task.Delay(1);
        return v;
    }

    static async Task<string> Everything(int seed)
    {
        int i = seed;
        long l = seed * 1_000_000_000L;
        double d = seed / 3.0;
        decimal m = seed * 1.1m;
        string s = "s" + seed;
        char c = (char)('a' + seed);
        bool b = seed % 2 == 0;
        byte by = (byte)(seed * 50);
        float f = seed * 0.25f;
        Point p = new Point(seed, -seed, "p");
        int? ni = seed > 2 ? seed : null;
        double? nd = null;
        int[] arr = { seed, seed + 1 };
        (int, string) tuple = (seed, "t");
        DateTime dt = new DateTime(2020, 1, 1).AddDays(seed);
        TimeSpan ts = TimeSpan.FromMinutes(seed);
        Guid g = new Guid(seed, 0, 0, new byte[8]);
        Color color = Color.Red;
        object o = seed;
        IList<string> list = new List<string> { "x" };
        Point? np = null;

        await Tick();
        i += await I(1);
        l -= 7;
        d *= 2;
        m += 0.01m;
        s += "!";
        c++;
        b = !b;
        by += 3;
        f += 1;
        p.X += 10;
        ni = ni is null ? -1 : ni + 1;
        await Tick();
        nd = d;
        arr[1] *= await I(3);
        tuple.Item2 += tuple.Item1;
        dt = dt.AddHours(await I(5));
        ts += TimeSpan.FromSeconds(30);
        color |= Color.Blue;
        o = o.ToString() + "o";
        list.Add("y" + await I(seed));
        np = p;
        await Tick();
        p.Tag = "q";

        return $"{i} {l} {d:F4} {m} {s} {c} {b} {by} {f} {p} {ni} {nd:F4} [{string.Join(",", arr)}] {tuple} " +
               $"{dt:yyyy-MM-dd HH:mm} {ts} {g} {color} {o} [{string.Join(",", list)}] {np}";
    }

    static async Task<string> ManyInts()
    {
        int a0 = 0, a1 = 1, a2 = 2, a3 = 3, a4 = 4, a5 = 5, a6 = 6, a7 = 7, a8 = 8, a9 = 9;
        int b0 = 10, b1 = 11, b2 = 12, b3 = 13, b4 = 14, b5 = 15, b6 = 16, b7 = 17, b8 = 18, b9 = 19;
        await Tick();
        a0 += b9; a1 += b8; a2 += b7; a3 += b6; a4 += b5;
        await Tick();
        a5 += b4; a6 += b3; a7 += b2; a8 += b1; a9 += b0;
        b0 = await I(a0 * 2);
        return $"{a0} {a1} {a2} {a3} {a4} {a5} {a6} {a7} {a8} {a9} {b0} {b1 + b2 + b3 + b4 + b5 + b6 + b7 + b8 + b9}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Everything(1));
            Console.WriteLine(await Everything(4));
            Console.WriteLine(await ManyInts());
        }
    }
}
