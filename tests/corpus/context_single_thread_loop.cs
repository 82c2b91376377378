// A single-threaded SynchronizationContext like a UI message loop: every continuation of every
// method started on the loop must run on the loop's thread. Each check prints true/false (and a
// false also fails the exit code). Covered: Task.Delay, Task.Yield, tasks completed on other
// threads, three-deep chains where every level suspends, a callee leaving the loop with
// ConfigureAwait(false) whose caller must come back, ValueTask, awaits inside try/catch/finally,
// async lambdas, generic methods, loops, and Task.WhenAll over several chains started on the loop.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static SingleThreadLoop Loop = null!;
    static int failures;
    // While several chains run at once their checks interleave in timer order: count, don't print.
    static bool quiet;

    static bool Check(string where)
    {
        bool onLoop = Loop.IsCurrent;
        if (!quiet)
            Console.WriteLine($"  {where}: on loop {onLoop.ToString().ToLowerInvariant()}");
        if (!onLoop) Interlocked.Increment(ref failures);
        return onLoop;
    }

    static Task Pause(int ms) => Suspend ? Task.Delay(ms) : Task.CompletedTask;

    static Task<int> FromOtherThread(int value)
    {
        if (!Suspend) return Task.FromResult(value);
        var source = new TaskCompletionSource<int>();
        new Thread(() => { Thread.Sleep(2); source.SetResult(value); }).Start();
        return source.Task;
    }

    static async Task<int> Level3(int v)
    {
        await Pause(1);
        Check("level3 after delay");
        return v + 1;
    }

    static async Task<int> Level2(int v)
    {
        if (Suspend) await Task.Yield();
        Check("level2 after yield");
        int r = await Level3(v);
        Check("level2 after level3");
        return r * 2;
    }

    static async Task<int> Level1()
    {
        int r = await Level2(1);
        Check("level1 after level2");
        r += await FromOtherThread(10);
        Check("level1 after other thread");
        return r;
    }

    static async Task<int> LeavesLoop()
    {
        await Pause(1).ConfigureAwait(false);
        Console.WriteLine("  leaves loop: on loop " + (Suspend ? "no (expected)" : "yes (completed synchronously)"));
        await Pause(1);
        return 5;
    }

    static async ValueTask<int> ValueTaskMethod(int v)
    {
        await Pause(1);
        Check("valuetask after delay");
        return v;
    }

    static async Task<T> Generic<T>(T value)
    {
        await Pause(1);
        Check("generic after delay");
        return value;
    }

    static async Task Handlers()
    {
        try
        {
            await Pause(1);
            Check("in try");
            throw new InvalidOperationException("boom");
        }
        catch (InvalidOperationException)
        {
            await Pause(1);
            Check("in catch");
        }
        finally
        {
            await Pause(1);
            Check("in finally");
        }
    }

    static async Task Thrower()
    {
        await Pause(1);
        throw new ArgumentException("from thrower");
    }

    static async Task Scenarios()
    {
        Check("start");
        Console.WriteLine("level1 = " + await Level1());
        Check("after level1");
        Console.WriteLine("leaves loop = " + await LeavesLoop());
        Check("after callee that left the loop");
        Console.WriteLine("valuetask = " + await ValueTaskMethod(3));
        Console.WriteLine("generic = " + await Generic("g"));
        await Handlers();
        Check("after handlers");
        try { await Thrower(); }
        catch (ArgumentException e) { Check("caught " + e.Message); }
        Func<int, Task<int>> lambda = async x => { await Pause(1); Check("lambda"); return x * 3; };
        Console.WriteLine("lambda = " + await lambda(4));
        int sum = 0;
        for (int i = 0; i < 3; i++)
        {
            sum += await Level3(i);
            Check("loop " + i);
        }
        Console.WriteLine("loop sum = " + sum);
        int failuresBefore = failures;
        quiet = true;
        var all = new List<Task<int>> { Level1(), Level2(5), Generic(7) };
        int[] results = await Task.WhenAll(all);
        quiet = false;
        Console.WriteLine("  concurrent chains all on loop " + (failures == failuresBefore).ToString().ToLowerInvariant());
        Check("after WhenAll");
        Console.WriteLine("WhenAll = " + string.Join(",", results));
    }

    static int Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Loop = new SingleThreadLoop();
            Loop.RunUntilComplete(Scenarios);
            Loop.Stop();
        }
        Console.WriteLine("failures " + failures);
        return failures == 0 ? 0 : 1;
    }
}
