// Trace lines/columns for the statement after an await where values stay on the stack in
// other ways: sums of awaits, compound assignment on array elements and properties, tuple
// deconstruction, awaits as arguments, using var, foreach over an awaited list, if/switch on an
// awaited value, ?? throw, patterns, interpolation, lock, checked, null-conditional.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using System.Threading.Tasks;

sealed class Box { public int Prop { get; set; } public int[] Arr = new int[3]; public Box? Next; public string? Name; }

sealed class Res : IDisposable
{
    public readonly int Id;
    public Res(int id) { Id = id; }
    public void Dispose() { Console.WriteLine("dispose " + Id); }
}

static class Program
{
    public static bool Suspend;

    static async Task<int> Val(int v) { if (Suspend) await Task.Yield(); return v; }
    static async Task<bool> Flag(bool v) { if (Suspend) await Task.Yield(); return v; }
    static async Task<string?> Str(string? v) { if (Suspend) await Task.Yield(); return v; }
    static async Task<Res> Open(int id) { if (Suspend) await Task.Yield(); return new Res(id); }
    static async Task<List<int>> List(params int[] xs) { if (Suspend) await Task.Yield(); return xs.ToList(); }
    static async Task<Box?> GetBox(bool make) { if (Suspend) await Task.Yield(); return make ? new Box { Name = "b" } : null; }

    static void Check(int v) { if (v > 0) throw new InvalidOperationException("bad " + v); }
    static bool CheckB(int v) { if (v > 0) throw new InvalidOperationException("badb " + v); return true; }
    static int Thrower(string why) => throw new NotSupportedException(why);
    static void Use(int v) { Console.WriteLine("use " + v); }
    static void Use2(int a, int b) { Console.WriteLine("use2 " + a + " " + b); }

    static readonly Regex Location = new(@" in (?:.*[/\\])?([^/\\]+):line (\d+)");

    static void Show(string title, Exception e)
    {
        Console.WriteLine($"[{title}] {e.GetType().Name}: {e.Message}");
        foreach (var raw in e.ToString().Split('\n').Skip(1))
        {
            var line = raw.TrimEnd('\r');
            if (line.Contains("b__") || line.Contains("g__") || line.Contains("--- End of")) continue;
            Console.WriteLine(Location.Replace(line, " in $1:$2"));
        }
        var frames = new StackTrace(e, true).GetFrames()
            .Where(f => f.GetFileName() != null)
            .Select(f => $"{Path.GetFileName(f.GetFileName())}:{f.GetFileLineNumber()}:{f.GetFileColumnNumber()}");
        Console.WriteLine("  cols: " + string.Join(" | ", frames));
    }

    static async Task Run(string title, Func<Task> action)
    {
        try
        {
            await action();
            Console.WriteLine($"[{title}] no exception");
        }
        catch (Exception e)
        {
            Show(title, e);
        }
    }

    static async Task<int> SumOfAwaits()
    {
        int x;
        x = await Val(1) + await Val(2);
        Check(x);
        return x;
    }

    static async Task<int> SumThenCheckOther(int k)
    {
        int y = k;
        y = y * 2 + await Val(1) * await Val(3);
        Console.WriteLine("y " + y);
        Check(y - 100 + k);
        return y;
    }

    static async Task<int> ArrayCompound(int i)
    {
        var arr = new int[3];
        arr[i] += await Val(5);
        arr[i + 1] -= await Val(2);
        Check(arr[i] + arr[i + 1]);
        return arr[i];
    }

    static async Task<int> FieldArrayCompound(Box b, int i)
    {
        b.Arr[i] += await Val(5);
        Check(b.Arr[i]);
        return 0;
    }

    static async Task<int> PropAssign(Box b)
    {
        b.Prop = await Val(4);
        Use(b.Prop);
        Check(b.Prop);
        return b.Prop;
    }

    static async Task<int> PropCompound(Box b)
    {
        b.Prop += await Val(4);
        Check(b.Prop);
        return b.Prop;
    }

    static async Task<int> TupleDeconstruct()
    {
        int a, b;
        (a, b) = (await Val(1), await Val(2));
        Check(a + b);
        return a;
    }

    static async Task<int> TupleDeclare()
    {
        var (a, b) = (await Val(6), await Val(7));
        Use2(a, b);
        Check(b);
        return a;
    }

    static async Task<int> ArgThenThrow()
    {
        Use2(1, await Val(3));
        Check(3);
        return 0;
    }

    static async Task<int> ArgOfArgThenThrow()
    {
        Use(Math.Max(await Val(3), await Val(8)));
        Thrower("after arg");
        return 0;
    }

    static async Task<int> UsingVarThenThrow()
    {
        using var r = await Open(1);
        Check(r.Id);
        return r.Id;
    }

    static async Task<int> UsingVarTwoThenThrow()
    {
        using var r = await Open(2);
        using var s = await Open(3);
        Check(r.Id + s.Id);
        return r.Id;
    }

    static async Task<int> ForeachBodyThrows()
    {
        int sum = 0;
        foreach (var x in await List(0, 0, 9))
        {
            sum += x;
            Check(x);
        }
        return sum;
    }

    static async Task<int> ForeachBodyAwaitThenThrows()
    {
        int sum = 0;
        foreach (var x in await List(0, 4))
        {
            sum += await Val(x);
            Check(sum);
        }
        return sum;
    }

    static async Task<int> IfAwait()
    {
        if (await Flag(true))
            Thrower("if");
        return 0;
    }

    static async Task<int> IfAwaitBlock(int k)
    {
        if (await Flag(true) && k > 0)
        {
            Use(k);
            Thrower("if block");
        }
        return 0;
    }

    static async Task<int> SwitchAwait()
    {
        switch (await Val(1))
        {
            case 0:
                return 0;
            case 1:
                Thrower("case 1");
                break;
        }
        return 2;
    }

    static async Task<int> SwitchAwaitString()
    {
        switch (await Str("two"))
        {
            case "one": return 1;
            case "two":
                Check(2);
                break;
            default: return 3;
        }
        return 4;
    }

    static async Task<string> CoalesceThrow()
    {
        return await Str(null) ?? throw new ArgumentNullException("value");
    }

    static async Task<string> CoalesceThrowLocal()
    {
        var s = await Str(null)
            ?? throw new ArgumentNullException("local");
        return s;
    }

    static async Task<bool> PatternAnd()
    {
        return await Val(5) is { } v && CheckB(v);
    }

    static async Task<bool> PatternIf()
    {
        if (await Str("abc") is { Length: > 2 } s && CheckB(s.Length))
            return true;
        return false;
    }

    static async Task<string> Interp()
    {
        var s = $"a={await Val(1)} b={Thrower("interp")}";
        return s;
    }

    static async Task<string> InterpThen()
    {
        var s = $"a={await Val(1)} b={await Val(2)}";
        Check(s.Length);
        return s;
    }

    static readonly object Gate = new();

    static async Task<int> LockAfterAwait()
    {
        int v = await Val(7);
        lock (Gate)
        {
            Check(v);
        }
        return v;
    }

    static async Task<int> LockThenAwait()
    {
        int v;
        lock (Gate)
        {
            v = 3;
        }
        v += await Val(2);
        Check(v);
        return v;
    }

    static async Task<int> CheckedAfterAwait()
    {
        int big = await Val(int.MaxValue);
        int r = checked(big + 1);
        return r;
    }

    static async Task<int> CheckedInline()
    {
        int r = checked(await Val(int.MaxValue) * 2);
        return r;
    }

    static async Task<long> CheckedCompound()
    {
        long r = long.MaxValue - 1;
        r = checked(r + await Val(2));
        return r;
    }

    static async Task<int> NullConditional()
    {
        var b = await GetBox(true);
        int? n = b?.Next?.Prop;
        Use(n ?? -1);
        Thrower("after ?.");
        return 0;
    }

    static async Task<int> NullConditionalCall()
    {
        var b = await GetBox(true);
        var len = b?.Name?.Length;
        Check(len ?? 0);
        return 0;
    }

    static async Task<int> AwaitInCatchThenThrow()
    {
        try
        {
            Check(await Val(1));
        }
        catch (InvalidOperationException)
        {
            int v = await Val(2);
            Check(v);
        }
        return 0;
    }

    static async Task<int> AwaitInFinallyThenThrow()
    {
        int v = 0;
        try
        {
            v = await Val(1);
        }
        finally
        {
            v += await Val(2);
            Check(v);
        }
        return v;
    }

    static async Task<int> LocalFunctionShapes(int k)
    {
        return await Inner(k);

        static async Task<int> Inner(int k)
        {
            var arr = new int[2];
            arr[0] += await Val(k);
            Check(arr[0]);
            return 0;
        }
    }

    static async Task<int> CapturingLocal(int k)
    {
        int captured = k;
        return await Inner();

        async Task<int> Inner()
        {
            captured += await Val(1);
            Check(captured);
            return captured;
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"===== suspend={suspend}");
            await Run("sum of awaits", SumOfAwaits);
            await Run("sum then check", () => SumThenCheckOther(200));
            await Run("array compound", () => ArrayCompound(0));
            await Run("field array compound", () => FieldArrayCompound(new Box(), 1));
            await Run("prop assign", () => PropAssign(new Box()));
            await Run("prop compound", () => PropCompound(new Box()));
            await Run("tuple declare", TupleDeclare);
            await Run("arg then throw", ArgThenThrow);
            await Run("arg of arg then throw", ArgOfArgThenThrow);
            await Run("using var", UsingVarThenThrow);
            await Run("using var two", UsingVarTwoThenThrow);
            await Run("foreach body", ForeachBodyThrows);
            await Run("foreach body await", ForeachBodyAwaitThenThrows);
            await Run("if await", IfAwait);
            await Run("if await block", () => IfAwaitBlock(1));
            await Run("switch await", SwitchAwait);
            await Run("switch await string", SwitchAwaitString);
            await Run("coalesce throw", CoalesceThrow);
            await Run("coalesce throw local", CoalesceThrowLocal);
            await Run("pattern and", PatternAnd);
            await Run("pattern if", PatternIf);
            await Run("interp", Interp);
            await Run("interp then", InterpThen);
            await Run("lock after await", LockAfterAwait);
            await Run("lock then await", LockThenAwait);
            await Run("null conditional", NullConditional);
            await Run("null conditional call", NullConditionalCall);
            await Run("await in catch", AwaitInCatchThenThrow);
            await Run("await in finally", AwaitInFinallyThenThrow);
            await Run("capturing local", () => CapturingLocal(3));
        }
    }
}
