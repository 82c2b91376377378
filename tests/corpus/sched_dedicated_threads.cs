// A TaskScheduler running tasks on its own dedicated threads, like seed 003's StaTaskScheduler(2)
// (one thread may block waiting while the other runs continuations): async methods started on it
// resume on one of its threads after every await, including after awaiting callees that suspend,
// exceptions, Task.Yield and Task.WhenAll; .Wait() on its task from inside works as in the seed.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

sealed class DedicatedThreadsScheduler : TaskScheduler, IDisposable
{
    private readonly BlockingCollection<Task> tasks = new();
    private readonly List<Thread> threads;

    public DedicatedThreadsScheduler(int count)
    {
        threads = Enumerable.Range(0, count).Select(i =>
        {
            var thread = new Thread(() =>
            {
                foreach (var task in tasks.GetConsumingEnumerable())
                    TryExecuteTask(task);
            }) { IsBackground = true, Name = "dedicated " + i };
            thread.Start();
            return thread;
        }).ToList();
    }

    public bool OwnsCurrentThread => threads.Contains(Thread.CurrentThread);

    protected override void QueueTask(Task task) => tasks.Add(task);

    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) =>
        OwnsCurrentThread && TryExecuteTask(task);

    protected override IEnumerable<Task> GetScheduledTasks() => tasks.ToArray();

    public override int MaximumConcurrencyLevel => threads.Count;

    public void Dispose()
    {
        tasks.CompleteAdding();
        foreach (var thread in threads) thread.Join();
    }
}

static class Program
{
    static bool Suspend;
    static DedicatedThreadsScheduler Scheduler = null!;
    static int offThreads;

    static void Check()
    {
        if (!Scheduler.OwnsCurrentThread || TaskScheduler.Current != Scheduler) Interlocked.Increment(ref offThreads);
    }

    static Task Pause() => Suspend ? Task.Delay(1) : Task.CompletedTask;

    static async Task<int> CountAsync(int n)
    {
        int sum = 0;
        for (int i = 0; i < n; i++)
        {
            await Pause();
            Check();
            sum += await Step(i);
            Check();
        }
        return sum;
    }

    static async Task<int> Step(int i)
    {
        if (Suspend) await Task.Yield();
        Check();
        if (i == 7) throw new InvalidOperationException("step 7");
        return i;
    }

    static async Task<string> WithException()
    {
        try
        {
            await CountAsync(10);
            return "no exception";
        }
        catch (InvalidOperationException e)
        {
            Check();
            await Pause();
            Check();
            return "caught " + e.Message;
        }
    }

    static async Task<int> Fanout()
    {
        var parts = Enumerable.Range(1, 4).Select(CountAsync).ToArray();
        int[] sums = await Task.WhenAll(parts);
        Check();
        return sums.Sum();
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            offThreads = 0;
            Console.WriteLine($"-- suspend={suspend}");
            using (Scheduler = new DedicatedThreadsScheduler(2))
            {
                Task.Factory.StartNew(() =>
                {
                    Console.WriteLine("count " + CountAsync(5).Result);
                    Console.WriteLine(WithException().Result);
                    Console.WriteLine("fanout " + Fanout().Result);
                }, CancellationToken.None, TaskCreationOptions.None, Scheduler).Wait();
            }
            Console.WriteLine("continuations off the scheduler's threads: " + offThreads);
        }
    }
}
