// Lambdas created inside loops: a for loop variable captured through a per-iteration copy, foreach
// variables (a fresh variable per iteration), a variable shared by all iterations, started tasks
// collected and awaited with Task.WhenAll (interleaving when they suspend), and a while loop whose
// lambdas capture and modify the loop's state between awaits.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> ForLoop()
    {
        var funcs = new List<Func<Task<int>>>();
        for (int i = 0; i < 3; i++)
        {
            int copy = i;
            funcs.Add(async () => { await Pause(); return copy * copy; });
        }
        var results = new List<int>();
        foreach (var f in funcs)
            results.Add(await f());
        return string.Join(",", results);
    }

    static async Task<string> ForeachLoop(IEnumerable<string> words)
    {
        var tasks = new List<Task<string>>();
        foreach (var w in words)
            tasks.Add(((Func<Task<string>>)(async () => { await Pause(); return w.ToUpperInvariant(); }))());
        var all = await Task.WhenAll(tasks);
        return string.Join(",", all);
    }

    static async Task<string> SharedAcrossIterations()
    {
        int total = 0;
        var funcs = new List<Func<Task>>();
        for (int i = 1; i <= 4; i++)
        {
            int k = i;
            funcs.Add(async () => { int before = total; await Pause(); total = before + k; });
        }
        foreach (var f in funcs)
            await f();
        return $"total {total}";
    }

    static async Task<string> WhileLoop(int limit)
    {
        int n = 0;
        var trail = new List<int>();
        Func<Task<bool>> step = async () =>
        {
            await Pause();
            n += 3;
            return n < limit;
        };
        while (await step())
        {
            trail.Add(n);
            await Pause();
            n--;
        }
        return $"n={n} trail={string.Join(",", trail)}";
    }

    static async Task<int> ParallelSum(int count)
    {
        var tasks = Enumerable.Range(1, count).Select(async i =>
        {
            await Pause();
            return i * 2;
        }).ToArray();
        return (await Task.WhenAll(tasks)).Sum();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await ForLoop());
            Console.WriteLine(await ForeachLoop(new[] { "a", "b", "c" }));
            Console.WriteLine(await SharedAcrossIterations());
            Console.WriteLine(await WhileLoop(10));
            Console.WriteLine(await ParallelSum(5));
        }
    }
}
