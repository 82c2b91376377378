// Overrides of a non-async covariant override: an async Task method, a non-async override returning
// Task<int> (covariant, by hand), non-async and async overrides of that override, and a Task<int>
// subclass returned below; and the same chain with no async override below the covariant one. Through the base the result is not read; through the covariant types
// it is. Every call must run the most derived body, on the synchronous path and after a suspension.
using System;
using System.Threading.Tasks;

interface IJob
{
    Task Run();
}

class Job : IJob
{
    public virtual async Task Run()
    {
        await Program.Pause();
        Console.WriteLine("  Job.Run");
    }
}

class ResultJob : Job
{
    public override Task<int> Run()
    {
        Console.WriteLine("  ResultJob.Run");
        return Task.FromResult(7);
    }
}

class ResultJob2 : ResultJob
{
    public override Task<int> Run()
    {
        Console.WriteLine("  ResultJob2.Run");
        return MyTask<int>.Started(() => 8);
    }
}

class SubclassResultJob : ResultJob2
{
    public override MyTask<int> Run()
    {
        Console.WriteLine("  SubclassResultJob.Run");
        return MyTask<int>.Started(() => 9);
    }
}

class AsyncOverResultJob : ResultJob2
{
    public override async Task<int> Run()
    {
        int inner = await base.Run();
        await Program.Pause();
        Console.WriteLine("  AsyncOverResultJob.Run");
        return inner + 10;
    }
}

class AsyncOverAsyncOverResultJob : AsyncOverResultJob
{
    public override async Task<int> Run()
    {
        int inner = await base.Run();
        Console.WriteLine("  AsyncOverAsyncOverResultJob.Run");
        return inner + 100;
    }
}

// The same chain with no async override below the covariant one.
class PlainResultJob : Job
{
    public override Task<int> Run()
    {
        Console.WriteLine("  PlainResultJob.Run");
        return Task.FromResult(20);
    }
}

class PlainResultJob2 : PlainResultJob
{
    public override Task<int> Run()
    {
        Console.WriteLine("  PlainResultJob2.Run");
        return MyTask<int>.Started(() => 21);
    }
}

class MyTask<T>(Func<T> function) : Task<T>(function)
{
    public static MyTask<T> Started(Func<T> function)
    {
        var task = new MyTask<T>(function);
        if (Program.Suspend) task.Start(); else task.RunSynchronously();
        return task;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task AsJob(Job job) => await job.Run();
    static async Task AsInterface(IJob job) => await job.Run();
    static async Task<int> AsResultJob(ResultJob job) => await job.Run();
    static async Task<int> AsResultJob2(ResultJob2 job) => await job.Run();
    static async Task<int> AsAsyncOverResultJob(AsyncOverResultJob job) => await job.Run();
    static async Task<int> AsPlainResultJob(PlainResultJob job) => await job.Run();

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Job[] jobs =
            [
                new ResultJob(), new ResultJob2(), new SubclassResultJob(), new AsyncOverResultJob(), new AsyncOverAsyncOverResultJob(),
                new PlainResultJob(), new PlainResultJob2(),
            ];
            foreach (var job in jobs)
            {
                string name = job.GetType().Name;
                Console.WriteLine($"{name} as Job:");
                await AsJob(job);
                Console.WriteLine($"{name} as IJob:");
                await AsInterface(job);
                if (job is ResultJob resultJob)
                {
                    Console.WriteLine($"{name} as ResultJob:");
                    Console.WriteLine($"  -> {await AsResultJob(resultJob)}");
                }
                if (job is ResultJob2 resultJob2)
                {
                    Console.WriteLine($"{name} as ResultJob2:");
                    Console.WriteLine($"  -> {await AsResultJob2(resultJob2)}");
                }
                if (job is PlainResultJob plain)
                {
                    Console.WriteLine($"{name} as PlainResultJob:");
                    Console.WriteLine($"  -> {await AsPlainResultJob(plain)}");
                }
                if (job is AsyncOverResultJob asyncOver)
                {
                    Console.WriteLine($"{name} as AsyncOverResultJob:");
                    Console.WriteLine($"  -> {await AsAsyncOverResultJob(asyncOver)}");
                }
            }
        }
    }
}
