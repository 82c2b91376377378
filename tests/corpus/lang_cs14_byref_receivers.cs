// By-reference arguments next to awaited arguments: C# 12 ref readonly parameters (passed with in, ref and no modifier), in parameters over struct locals, nested struct fields, heap fields, array elements; C# 14 extension(in S), extension(ref readonly S) and extension(ref S) receivers (methods, properties, compound operators) on locals, parameters, class fields, array elements and static fields with awaited arguments; Interlocked on fields of struct locals; refs whose target an awaited call mutates.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

struct Big
{
    public long A, B, C;
    public int Count;
    public Inner In;
    public override string ToString() => $"{A}/{B}/{C}#{Count}[{In.X}]";
}
struct Inner { public int X; }
sealed class Holder { public Big Big; public Big[] Arr = new Big[2]; public int N; }

static class BigExt
{
    extension(in Big b)
    {
        public long SumWith(long extra) { Program.Log($"SumWith({extra}) sees {b}"); return b.A + b.B + b.C + extra; }
        public long Total => b.A + b.B + b.C;
    }
    extension(ref readonly Big b)
    {
        public string Peek(string tag) { Program.Log($"Peek({tag}) sees {b}"); return tag + b.A; }
    }
    extension(ref Big b)
    {
        public void Bump(long by) { Program.Log($"Bump({by}) on {b}"); b.A += by; b.Count++; }
        public void operator +=(int x) { Program.Log($"Big+={x}"); b.B += x; b.Count++; }
    }
}

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();
    public static void Log(string s) => s_log.Add(s);
    static async Task<int> Val(int x) { Log($"Val({x})"); if (s_suspend) await Task.Yield(); return x; }
    static async Task<Big> Mutate(Holder h, int by) { Log($"Mutate({by})"); if (s_suspend) await Task.Yield(); h.Big.A += by; h.N += by; return h.Big; }

    static string RR(ref readonly Big b, int y) { Log($"RR sees {b} y={y}"); return $"{b.A + y}"; }
    static string RRI(ref readonly int x, int y) { Log($"RRI sees {x} y={y}"); return $"{x + y}"; }
    static string In(in Big b, int y, in int z) { Log($"In sees {b} y={y} z={z}"); return $"{b.B + y + z}"; }
    static void Ref(ref int x, int y) { Log($"Ref {x}+={y}"); x += y; }

    static Big s_big;

    static async Task<string> Locals(Big p)
    {
        Big b = default;
        b.A = await Val(1);
        b.In.X = await Val(2);
        string r1 = RR(in b, await Val(10));
        string r2 = RR(ref b, await Val(20));
        string r3 = RR(b, await Val(30));
        string r4 = RRI(in b.In.X, await Val(40));
        string r5 = In(b, await Val(5), await Val(6));
        string r6 = In(in p, await Val(7), in b.Count);
        long s1 = b.SumWith(await Val(100));
        string pk = b.Peek((await Val(9)).ToString());
        b.Bump(await Val(1000));
        b += await Val(7);
        p.Bump(await Val(3));
        p += await Val(4);
        Ref(ref b.In.X, await Val(50));
        Ref(ref p.Count, await Val(60));
        Interlocked.Add(ref b.Count, await Val(70));
        long t = b.Total + await Val(1);
        return $"{r1} {r2} {r3} {r4} {r5} {r6} {s1} {pk} {t} b={b} p={p}";
    }

    static async Task<string> Heap(Holder h)
    {
        string r1 = RR(in h.Big, await Val(10));
        string r2 = In(h.Arr[await Val(1)], await Val(2), in h.N);
        long s1 = h.Big.SumWith(await Val(100));
        h.Big.Bump(await Val(5));
        h.Arr[await Val(0)].Bump(await Val(6));
        h.Arr[1] += await Val(8);
        s_big.Bump(await Val(9));
        s_big += await Val(11);
        Ref(ref h.Arr[0].In.X, await Val(12));
        Ref(ref h.N, await Val(13));
        Interlocked.Add(ref s_big.Count, await Val(14));
        string r3 = RR(in h.Big, (await Mutate(h, 1000)).Count);
        string r4 = In(in h.Big, await Val(1), in h.N);
        long s2 = h.Big.SumWith((await Mutate(h, 2000)).A);
        return $"{r1} {r2} {s1} {r3} {r4} {s2} big={h.Big} arr={h.Arr[0]},{h.Arr[1]} n={h.N} s={s_big}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            s_big = default;
            Console.WriteLine($"suspend={suspend}");
            s_log.Clear();
            Console.WriteLine($"  locals: {await Locals(new Big { C = 3 })}");
            Console.WriteLine($"    log: {string.Join(" | ", s_log)}");
            s_log.Clear();
            Console.WriteLine($"  heap: {await Heap(new Holder())}");
            Console.WriteLine($"    log: {string.Join(" | ", s_log)}");
        }
    }
}
