// Exceptions raised by the JIT's own checks (null dereference, array bounds, integer
// division by zero, casts, unboxing, checked overflow) in the statement right after an await, or
// a statement later, in Release and Debug, before and after a suspension: file, line, column.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using System.Threading.Tasks;

sealed class Order { public int[]? Lines; public string? Customer; public object? Tag; public Order? Parent; public int Qty; }

static class Program
{
    public static bool Suspend;

    static async Task<int> Val(int v) { if (Suspend) await Task.Yield(); return v; }
    static async Task<Order> GetOrder(int n) { if (Suspend) await Task.Yield(); return new Order { Lines = new int[n], Tag = "tag", Qty = n }; }
    static async Task<int[]> GetArray(int n) { if (Suspend) await Task.Yield(); return new int[n]; }
    static async Task<object> GetObj(object o) { if (Suspend) await Task.Yield(); return o; }
    static void Use(int v) { Console.WriteLine("use " + v); }

    static readonly Regex Location = new(@" in (?:.*[/\\])?([^/\\]+):line (\d+)");

    static void Show(string title, Exception e)
    {
        Console.WriteLine($"[{title}] {e.GetType().Name}");
        foreach (var raw in e.ToString().Split('\n').Skip(1))
        {
            var line = raw.TrimEnd('\r');
            if (line.Contains("b__") || line.Contains("--- End of")) continue;
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

    static async Task<int> IndexAfterAwait()
    {
        var arr = await GetArray(2);
        int v = arr[5];
        return v;
    }

    static async Task<int> IndexAfterStatement()
    {
        var arr = await GetArray(2);
        Use(arr.Length);
        int v = arr[5];
        return v;
    }

    static async Task<int> IndexInline()
    {
        int v = (await GetArray(1))[3];
        return v;
    }

    static async Task<int> IndexLoop(int n)
    {
        var arr = await GetArray(3);
        int sum = 0;
        for (int i = 0; i <= n; i++)
            sum += arr[i];
        return sum;
    }

    static async Task<int> IndexListAfterAwait()
    {
        var list = new List<int>(await GetArray(2));
        int v = list[5];
        return v;
    }

    static async Task<int> DivAfterAwait()
    {
        int d = await Val(0);
        int r = 100 / d;
        return r;
    }

    static async Task<int> DivInline()
    {
        int r = 100 % await Val(0);
        return r;
    }

    static async Task<long> DivLongAfterStatement()
    {
        long d = await Val(0);
        Use((int)d);
        long r = 100L / d;
        return r;
    }

    static async Task<int> NullFieldAfterAwait()
    {
        var order = await GetOrder(2);
        int q = order.Parent!.Qty;
        return q;
    }

    static async Task<int> NullAfterStatement()
    {
        var order = await GetOrder(2);
        Use(order.Qty);
        int len = order.Customer!.Length;
        return len;
    }

    static async Task<int> NullArrayAfterStatement()
    {
        var order = await GetOrder(2);
        order.Lines = null;
        Use(order.Qty);
        int first = order.Lines![0];
        return first;
    }

    static async Task<int> CastAfterAwait()
    {
        var o = await GetObj("text");
        var s = (Uri)o;
        return s.Port;
    }

    static async Task<int> UnboxAfterAwait()
    {
        var o = await GetObj("text");
        int i = (int)o;
        return i;
    }

    static async Task<int> UnboxAfterStatement()
    {
        var o = await GetObj(5L);
        Use(1);
        int i = (int)o;
        return i;
    }

    static async Task<int> CheckedAfterStatement()
    {
        int big = await Val(int.MaxValue);
        Use(1);
        int r = checked(big + 1);
        return r;
    }

    static async Task<int> CheckedConv()
    {
        long big = await Val(int.MaxValue);
        big *= 4;
        int r = checked((int)big);
        return r;
    }

    static async Task<int> ArrayStoreMismatch()
    {
        object[] arr = new string[2];
        arr[0] = await GetObj(3);
        return arr.Length;
    }

    static async Task<int> FaultInCatch()
    {
        try
        {
            await Val(1);
            throw new InvalidOperationException("first");
        }
        catch (InvalidOperationException)
        {
            var arr = await GetArray(1);
            return arr[2];
        }
    }

    static async Task<int> FaultInFinally()
    {
        int[] arr = new int[1];
        try
        {
            arr = await GetArray(1);
        }
        finally
        {
            await Val(1);
            Use(arr[4]);
        }
        return 0;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"===== suspend={suspend}");
            await Run("index after statement", IndexAfterStatement);
            await Run("list index", IndexListAfterAwait);
            await Run("div after await", DivAfterAwait);
            await Run("div inline", DivInline);
            await Run("div long after statement", DivLongAfterStatement);
            await Run("null field", NullFieldAfterAwait);
            await Run("null after statement", NullAfterStatement);
            await Run("null array after statement", NullArrayAfterStatement);
            await Run("cast", CastAfterAwait);
            await Run("unbox", UnboxAfterAwait);
            await Run("unbox after statement", UnboxAfterStatement);
            await Run("checked after statement", CheckedAfterStatement);
            await Run("array store mismatch", ArrayStoreMismatch);
            await Run("fault in catch", FaultInCatch);
            await Run("fault in finally", FaultInFinally);
        }
    }
}
