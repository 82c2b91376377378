// ConcurrentExclusiveSchedulerPair's concurrent side with a maximum concurrency of 2 and a task limit
// per thread hop: many async methods started on it never run more than two at once, every
// continuation of theirs (after Task.Delay, Task.Yield and awaited callees) stays on it, and the
// results and the observed maximum are printed.
using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static ConcurrentExclusiveSchedulerPair Pair = null!;
    static int running, maxRunning, offScheduler;

    static void Enter()
    {
        int now = Interlocked.Increment(ref running);
        int seen;
        while (now > (seen = Volatile.Read(ref maxRunning)) && Interlocked.CompareExchange(ref maxRunning, now, seen) != seen) { }
        if (TaskScheduler.Current != Pair.ConcurrentScheduler) Interlocked.Increment(ref offScheduler);
        Thread.SpinWait(2000);
    }

    static void Leave() => Interlocked.Decrement(ref running);

    static async Task<int> Child(int v)
    {
        Enter();
        Leave();
        if (Suspend) await Task.Yield();
        Enter();
        Leave();
        return v + 1;
    }

    static async Task<int> Job(int id)
    {
        int total = 0;
        for (int i = 0; i < 4; i++)
        {
            Enter();
            Leave();
            if (Suspend) await Task.Delay(1);
            total += await Child(id * i);
        }
        return total;
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            running = maxRunning = offScheduler = 0;
            Pair = new ConcurrentExclusiveSchedulerPair(TaskScheduler.Default, maxConcurrencyLevel: 2, maxItemsPerTask: 1);
            Console.WriteLine($"-- suspend={suspend}");
            var jobs = Enumerable.Range(0, 12)
                .Select(id => Task.Factory.StartNew(() => Job(id), CancellationToken.None, TaskCreationOptions.None, Pair.ConcurrentScheduler).Unwrap())
                .ToArray();
            Console.WriteLine("results " + string.Join(",", Task.WhenAll(jobs).GetAwaiter().GetResult()));
            Console.WriteLine("at most two at once " + (maxRunning <= 2).ToString().ToLowerInvariant() + ", off the scheduler " + offScheduler);
        }
    }
}
