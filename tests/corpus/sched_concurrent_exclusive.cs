// ConcurrentExclusiveSchedulerPair: async methods started on the exclusive scheduler come back to it
// after every await (TaskScheduler.Current is the exclusive scheduler, never two at once), callees
// awaited directly come back too, ConfigureAwait(false) leaves it, and work on the concurrent
// scheduler stays on the concurrent one. Checks print true/false.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static ConcurrentExclusiveSchedulerPair Pair = null!;
    static int running;
    static int overlaps;
    static int wrongScheduler;

    static Task Pause() => Suspend ? Task.Delay(1) : Task.CompletedTask;

    static void Enter()
    {
        if (Interlocked.Increment(ref running) > 1) Interlocked.Increment(ref overlaps);
    }

    static void Exit() => Interlocked.Decrement(ref running);

    static void ExpectScheduler(TaskScheduler expected)
    {
        if (TaskScheduler.Current != expected) Interlocked.Increment(ref wrongScheduler);
    }

    static async Task<int> Callee(int v)
    {
        ExpectScheduler(Pair.ExclusiveScheduler);
        Exit();
        await Pause();
        Enter();
        ExpectScheduler(Pair.ExclusiveScheduler);
        return v * 2;
    }

    static async Task<int> ExclusiveWork(int id)
    {
        Enter();
        int total = 0;
        for (int i = 0; i < 3; i++)
        {
            Exit();
            await Pause();
            Enter();
            ExpectScheduler(Pair.ExclusiveScheduler);
            total += await Callee(i);
            ExpectScheduler(Pair.ExclusiveScheduler);
        }
        Exit();
        return id * 100 + total;
    }

    static async Task<string> LeavesExclusive()
    {
        bool before = TaskScheduler.Current == Pair.ExclusiveScheduler;
        await Pause().ConfigureAwait(false);
        bool after = TaskScheduler.Current == Pair.ExclusiveScheduler;
        return $"before {before.ToString().ToLowerInvariant()}, after ConfigureAwait(false) {after.ToString().ToLowerInvariant()} (expected {(!Suspend).ToString().ToLowerInvariant()})";
    }

    static async Task<bool> ConcurrentWork()
    {
        await Pause();
        bool ok = TaskScheduler.Current == Pair.ConcurrentScheduler;
        if (Suspend) await Task.Yield();
        return ok && TaskScheduler.Current == Pair.ConcurrentScheduler;
    }

    static Task<T> StartOn<T>(TaskScheduler scheduler, Func<Task<T>> body) =>
        Task.Factory.StartNew(body, CancellationToken.None, TaskCreationOptions.None, scheduler).Unwrap();

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Pair = new ConcurrentExclusiveSchedulerPair();
            running = overlaps = wrongScheduler = 0;
            Console.WriteLine($"-- suspend={suspend}");
            var tasks = new Task<int>[4];
            for (int i = 0; i < tasks.Length; i++)
            {
                int id = i;
                tasks[i] = StartOn(Pair.ExclusiveScheduler, () => ExclusiveWork(id));
            }
            Console.WriteLine("results " + string.Join(",", Task.WhenAll(tasks).GetAwaiter().GetResult()));
            Console.WriteLine("overlaps " + overlaps + ", off the exclusive scheduler " + wrongScheduler);
            Console.WriteLine(StartOn(Pair.ExclusiveScheduler, LeavesExclusive).GetAwaiter().GetResult());
            var concurrent = new Task<bool>[3];
            for (int i = 0; i < concurrent.Length; i++)
                concurrent[i] = StartOn(Pair.ConcurrentScheduler, ConcurrentWork);
            Console.WriteLine("concurrent stayed " + string.Join(",", Task.WhenAll(concurrent).GetAwaiter().GetResult()).ToLowerInvariant());
            Pair.Complete();
            Pair.Completion.Wait();
            Console.WriteLine("pair completed " + Pair.Completion.IsCompletedSuccessfully.ToString().ToLowerInvariant());
        }
    }
}
