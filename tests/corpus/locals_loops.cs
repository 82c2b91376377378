// loop counters and accumulators live across awaits: nested for loops with awaits in bodies and
// conditions, foreach over arrays and List<T> (struct enumerator live across awaits), while loops
// with several counters, and locals declared inside loop bodies captured per iteration.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<string> NestedFor()
    {
        var sb = new System.Text.StringBuilder();
        for (int i = 0; i < 3; i++)
        {
            long row = 0;
            for (int j = 0; j < await Value(4); j++)
            {
                row = row * 10 + await Value(i + j);
                double ratio = (double)j / (i + 1);
                if (ratio > 1.5) break;
            }
            sb.Append(row).Append(' ');
        }
        return sb.ToString().TrimEnd();
    }

    static async Task<string> ForeachList()
    {
        var list = new List<string> { "a", "bb", "ccc" };
        int total = 0;
        string seen = "";
        foreach (var s in list)
        {
            total += await Value(s.Length);
            seen += s;
        }
        foreach (var n in new[] { 10, 20, 30 })
        {
            if (n == 20) continue;
            total += await Value(n);
        }
        var dict = new Dictionary<int, string> { [1] = "one", [2] = "two" };
        foreach (var kv in dict)
            seen += await Value(kv.Key) + kv.Value;
        return $"{total} {seen}";
    }

    static async Task<string> WhileCounters()
    {
        int i = 0, evens = 0, odds = 0;
        decimal sum = 0;
        while (i < 10)
        {
            var v = await Value(i);
            if (v % 2 == 0) evens++; else odds++;
            sum += v * 0.5m;
            i++;
        }
        int k = 100;
        do
        {
            k -= await Value(7);
        } while (k > 0);
        return $"{evens} {odds} {sum} {k}";
    }

    static async Task<string> DescendingAndStep()
    {
        string s = "";
        for (int i = 10, j = 0; i > j; i -= 2, j += await Value(1))
            s += $"{i}:{j} ";
        for (long x = 1; x < 1_000_000_000_000; x *= await Value(1000))
            s += x + " ";
        return s.TrimEnd();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await NestedFor());
            Console.WriteLine(await ForeachList());
            Console.WriteLine(await WhileCounters());
            Console.WriteLine(await DescendingAndStep());
        }
    }
}
