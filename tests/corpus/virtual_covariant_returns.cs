// Covariant returns of Task types: Task<T> derives from Task, so an override may return Task<int>
// where the base method returns Task (C# 9 covariant returns, class methods only). Calls through the
// base see a Task; calls through the derived type see the result. A further override keeps the
// covariant signature, and a classic non-async override returns a Task<int> built by hand.
using System;
using System.Threading.Tasks;

class Job
{
    public int Runs;

    public virtual async Task Run()
    {
        await Program.Pause();
        Runs++;
        Console.WriteLine("  Job.Run");
    }
}

class CountingJob : Job
{
    public override async Task<int> Run()
    {
        await base.Run();
        await Program.Pause();
        Console.WriteLine("  CountingJob.Run");
        return Runs * 100;
    }
}

class DoubleCountingJob : CountingJob
{
    public override async Task<int> Run()
    {
        int inner = await base.Run();
        await Program.Pause();
        return inner * 2 + 1;
    }
}

sealed class HandMadeJob : CountingJob
{
    // Not async: returns a task produced by another method, as pre-async code did.
    public override Task<int> Run() => Program.Suspend ? Task.Run(() => 7) : Task.FromResult(7);
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task RunAsJob(Job job)
    {
        Task task = job.Run();
        await task;
        Console.WriteLine($"  as Job: {task.GetType().IsGenericType} runs={job.Runs}" +
            (task is Task<int> typed ? $" result={typed.Result}" : ""));
    }

    static async Task<int> RunAsCounting(CountingJob job) => await job.Run();

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var job in new Job[] { new Job(), new CountingJob(), new DoubleCountingJob(), new HandMadeJob() })
            {
                Console.WriteLine(job.GetType().Name);
                await RunAsJob(job);
                if (job is CountingJob counting)
                    Console.WriteLine($"  as CountingJob: {await RunAsCounting(counting)}");
            }
        }
    }
}
