// early returns before any await, between awaits, from inside loops and from inside
// try/finally and using blocks, in Task, Task<T>, ValueTask and ValueTask<T> methods.
using System;
using System.Threading.Tasks;

sealed class Scope : IDisposable
{
    private readonly string name;
    public Scope(string name) { this.name = name; Console.WriteLine($"  enter {name}"); }
    public void Dispose() => Console.WriteLine($"  leave {name}");
}

static class Program
{
    static bool Suspend;

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<string> ReturnBeforeAwait(int n)
    {
        if (n < 0) return "negative, no await";
        var v = await Value(n);
        if (v == 0) return "zero after one await";
        v += await Value(1);
        return "value " + v;
    }

    static async Task<int> ReturnFromLoop(int[] items, int target)
    {
        for (int i = 0; i < items.Length; i++)
        {
            foreach (var _ in new[] { 1, 2 })
            {
                if (await Value(items[i]) == target) return i;
            }
        }
        return -1;
    }

    static async Task<string> ReturnFromTryFinally(bool early)
    {
        try
        {
            await Value(1);
            if (early) return "early";
            await Value(2);
        }
        finally
        {
            Console.WriteLine($"  finally (early={early})");
        }
        return "late";
    }

    static async ValueTask<int> ReturnFromUsing(int n)
    {
        using (new Scope("outer"))
        {
            using var inner = new Scope("inner");
            if (await Value(n) > 5) return n * 2;
        }
        return n;
    }

    static async ValueTask EarlyVoid(int n)
    {
        if (n == 0)
        {
            Console.WriteLine("  EarlyVoid: nothing to do");
            return;
        }
        await Value(n);
        Console.WriteLine($"  EarlyVoid: did {n}");
    }

    static async Task EarlyTask(bool stop)
    {
        await Value(0);
        if (stop) return;
        Console.WriteLine("  EarlyTask: went on");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var n in new[] { -1, 0, 5 })
                Console.WriteLine($"ReturnBeforeAwait({n}) = {await ReturnBeforeAwait(n)}");
            Console.WriteLine($"ReturnFromLoop = {await ReturnFromLoop(new[] { 4, 8, 15, 16 }, 15)} {await ReturnFromLoop(new[] { 1 }, 2)}");
            Console.WriteLine($"ReturnFromTryFinally = {await ReturnFromTryFinally(true)}");
            Console.WriteLine($"ReturnFromTryFinally = {await ReturnFromTryFinally(false)}");
            Console.WriteLine($"ReturnFromUsing = {await ReturnFromUsing(9)}");
            Console.WriteLine($"ReturnFromUsing = {await ReturnFromUsing(2)}");
            await EarlyVoid(0);
            await EarlyVoid(3);
            await EarlyTask(true);
            await EarlyTask(false);
        }
    }
}
