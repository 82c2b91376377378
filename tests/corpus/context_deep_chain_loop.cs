// A deep chain (200 levels) of rewritten methods started on a single-threaded loop, where the
// innermost level suspends several times and every level continues after its callee: every level
// must continue on the loop thread; then an exception thrown at the bottom after a suspension is
// caught at every tenth level (and rethrown), each catch on the loop. Prints counts and true/false.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static SingleThreadLoop Loop = null!;
    static int onLoop, offLoop, catches;

    static void Check()
    {
        if (Loop.IsCurrent) onLoop++;
        else Interlocked.Increment(ref offLoop);
    }

    static async Task<long> Down(int level)
    {
        if (level == 0)
        {
            long v = 0;
            for (int i = 0; i < 3; i++)
            {
                if (Suspend) await Task.Delay(1);
                Check();
                v += i;
            }
            return v;
        }
        long below = await Down(level - 1);
        Check();
        return below + level;
    }

    static async Task<int> Throwing(int level)
    {
        if (level == 0)
        {
            if (Suspend) await Task.Delay(1);
            throw new InvalidOperationException("bottom");
        }
        if (level % 10 != 0)
            return await Throwing(level - 1) + 1;
        try
        {
            return await Throwing(level - 1) + 1;
        }
        catch (InvalidOperationException)
        {
            Check();
            catches++;
            throw;
        }
    }

    static async Task Scenario()
    {
        Console.WriteLine("sum " + await Down(200));
        try { await Throwing(200); }
        catch (InvalidOperationException e) { Check(); Console.WriteLine("caught " + e.Message + " after " + catches + " catches"); }
        Console.WriteLine($"continuations on loop {onLoop}, elsewhere {offLoop}");
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            onLoop = offLoop = catches = 0;
            Console.WriteLine($"-- suspend={suspend}");
            Loop = new SingleThreadLoop(maxStackSize: 16 * 1024 * 1024);
            Loop.RunUntilComplete(Scenario);
            Loop.Stop();
        }
    }
}
