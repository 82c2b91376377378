// csc: /debug:embedded /pathmap:$(Folder)=/_/corpus
// [module: SkipLocalsInit] (no zeroed locals) with an embedded PDB and /pathmap: struct and scalar
// locals first written in branches and loops around awaits, out-parameter locals, stackalloc'd spans
// written before read, Unsafe.SkipInit; file and line of the top frame of exceptions thrown after awaits.
using System;
using System.Buffers;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

[module: SkipLocalsInit]

struct Vec { public double X, Y; public string? Tag; public override string ToString() => $"({X},{Y},{Tag ?? "-"})"; }
struct Big { public long A, B, C, D, E, F, G, H; public long Sum => A + B + C + D + E + F + G + H; }

static class Program
{
    static bool Suspend;
    static async Task<int> Val(int v) { if (Suspend) await Task.Yield(); return v; }
    static async ValueTask<double> Dbl(double v) { if (Suspend) await Task.Yield(); return v; }

    static bool TryParse(string s, out Vec v)
    {
        var parts = s.Split(',');
        if (parts.Length != 2) { v = default; return false; }
        v = new Vec { X = double.Parse(parts[0]), Y = double.Parse(parts[1]), Tag = s };
        return true;
    }

    static async Task<string> Branchy(int n)
    {
        int x;
        long total;
        Vec v;
        if (n > 2) { x = await Val(n); total = x * 10L; v = new Vec { X = await Dbl(1.5) }; }
        else { x = -n; total = await Val(0); v.X = 2; v.Y = await Dbl(3); v.Tag = "t"; }
        for (int i = 0; i < 3; i++)
        {
            Big b;
            b.A = i; b.B = await Val(i); b.C = 1; b.D = 2; b.E = 3; b.F = 4; b.G = 5; b.H = await Val(6);
            total += b.Sum;
        }
        return $"{x} {total} {v}";
    }

    static async Task<string> OutLocals(string[] inputs)
    {
        double sum = 0;
        int bad = 0;
        foreach (var s in inputs)
        {
            if (TryParse(await Val(0) == 0 ? s : "", out var v)) { sum += v.X * await Dbl(v.Y); }
            else bad++;
        }
        return $"{sum} bad={bad}";
    }

    static async Task<string> Spans(int n)
    {
        int checksum = 0;
        {
            Span<int> buf = stackalloc int[16];
            for (int i = 0; i < buf.Length; i++) buf[i] = i * n;
            foreach (var b in buf) checksum += b;
        }
        checksum += await Val(1);
        var rented = ArrayPool<byte>.Shared.Rent(8);
        try
        {
            for (int i = 0; i < 8; i++) rented[i] = (byte)(i + await Val(1));
            int s = 0;
            for (int i = 0; i < 8; i++) s += rented[i];
            checksum += s;
        }
        finally { ArrayPool<byte>.Shared.Return(rented); }
        return checksum.ToString();
    }

    static async Task<string> SkipInit(int n)
    {
        Unsafe.SkipInit(out Vec v);
        v.X = n; v.Y = await Dbl(n * 2); v.Tag = null;
        Unsafe.SkipInit(out int k);
        k = await Val(n) + 1;
        return $"{v} {k}";
    }

    static void Thrower(int n) => throw new InvalidOperationException("bad " + n);

    static string Where(Exception e)
    {
        var f = new StackTrace(e, true).GetFrame(0)!;
        return $"{f.GetFileName()}:{f.GetFileLineNumber()}";
    }

    static async Task<string> Throws(int n)
    {
        try
        {
            await Val(n);
            Thrower(n);
            return "no";
        }
        catch (Exception e) { return $"{e.Message} at {Where(e)}"; }
    }

    static async Task<string> ThrowsHere(int n)
    {
        try
        {
            await Val(n);
            if (n > 0)
                throw new ArgumentException("here");
            return "no";
        }
        catch (Exception e) { return $"{e.Message} at {Where(e)}"; }
    }

    static async Task<string> Caller([CallerFilePath] string file = "", [CallerLineNumber] int line = 0, [CallerMemberName] string member = "")
    {
        await Val(0);
        return $"{file}:{line}:{member}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine(await Branchy(1) + " | " + await Branchy(5));
            Console.WriteLine(await OutLocals(new[] { "1,2", "x", "3,4", "5,6,7" }));
            Console.WriteLine(await Spans(3));
            Console.WriteLine(await SkipInit(4));
            Console.WriteLine(await Throws(1));
            Console.WriteLine(await ThrowsHere(1));
            Console.WriteLine(await Caller());
        }
    }
}
