// virtual_covariant_task_subclass under an abstract slot: the first override of an abstract Task
// method is not async and returns a Task subclass, and is overridden again; a rewritten sibling
// makes the abstract slot one that rewritten code dispatches through. Every call must run the most
// derived body, on the synchronous path and after a suspension.
using System;
using System.Threading.Tasks;

abstract class Job
{
    public abstract Task Run();
}

class AsyncJob : Job
{
    public override async Task Run()
    {
        await Program.Pause();
        Console.WriteLine("  AsyncJob.Run");
    }
}

class SubclassJob : Job
{
    public override MyTask Run()
    {
        Console.WriteLine("  SubclassJob.Run");
        return MyTask.Started(() => Console.WriteLine("  SubclassJob.Run's task ran"));
    }
}

class SubclassJob2 : SubclassJob
{
    public override MySubTask Run()
    {
        Console.WriteLine("  SubclassJob2.Run");
        return MySubTask.Started(() => Console.WriteLine("  SubclassJob2.Run's task ran"));
    }
}

abstract class Source
{
    public abstract Task<int> Get();
}

class SubclassSource : Source
{
    public override MyTask<int> Get()
    {
        Console.WriteLine("  SubclassSource.Get");
        return MyTask<int>.Started(() => 1);
    }
}

class SubclassSource2 : SubclassSource
{
    public override MyTask<int> Get()
    {
        Console.WriteLine("  SubclassSource2.Get");
        return MyTask<int>.Started(() => 2);
    }
}

class AsyncSource : Source
{
    public override async Task<int> Get()
    {
        await Program.Pause();
        Console.WriteLine("  AsyncSource.Get");
        return 3;
    }
}

class MyTask(Action action) : Task(action)
{
    public static MyTask Started(Action action) => Program.Start(new MyTask(action));
}

class MySubTask(Action action) : MyTask(action)
{
    public static new MySubTask Started(Action action) => Program.Start(new MySubTask(action));
}

class MyTask<T>(Func<T> function) : Task<T>(function)
{
    public static MyTask<T> Started(Func<T> function) => Program.Start(new MyTask<T>(function));
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    public static TTask Start<TTask>(TTask task) where TTask : Task
    {
        if (Suspend) task.Start(); else task.RunSynchronously();
        return task;
    }

    static async Task AsJob(Job job) => await job.Run();
    static async Task AsSubclassJob(SubclassJob job) => await job.Run();
    static async Task<int> AsSource(Source source) => await source.Get();
    static async Task<int> AsSubclassSource(SubclassSource source) => await source.Get();

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var job in new Job[] { new AsyncJob(), new SubclassJob(), new SubclassJob2() })
            {
                string name = job.GetType().Name;
                Console.WriteLine($"{name} as Job:");
                await AsJob(job);
                if (job is SubclassJob subclass)
                {
                    Console.WriteLine($"{name} as SubclassJob:");
                    await AsSubclassJob(subclass);
                }
            }
            foreach (var source in new Source[] { new AsyncSource(), new SubclassSource(), new SubclassSource2() })
            {
                string name = source.GetType().Name;
                Console.WriteLine($"{name} as Source:");
                Console.WriteLine($"  -> {await AsSource(source)}");
                if (source is SubclassSource subclass)
                {
                    Console.WriteLine($"{name} as SubclassSource:");
                    Console.WriteLine($"  -> {await AsSubclassSource(subclass)}");
                }
            }
        }
    }
}
