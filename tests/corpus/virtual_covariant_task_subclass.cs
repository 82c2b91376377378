// Task subclasses down a hierarchy: an async Task (or Task<T>) method, a non-async override that
// returns a Task subclass covariantly (an async method cannot return one), and overrides of that
// override, returning the same subclass or a subclass of it. Awaited through every static type of
// the chain, a generic base, an interface, and with a rewritten override between, each call must
// run the most derived body, on the synchronous path and after a suspension. The runtime team's
// conformance tests found the shape (Async2 refused the assembly; the runtime's own runtime async
// ran the base body). virtual_covariant_task_subclass_abstract has the same under an abstract slot.
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
    public override MyTask Run()
    {
        Console.WriteLine("  SubclassJob2.Run");
        return base.Run();
    }
}

class SubSubclassJob : SubclassJob2
{
    public override MySubTask Run()
    {
        Console.WriteLine("  SubSubclassJob.Run");
        return MySubTask.Started(() => Console.WriteLine("  SubSubclassJob.Run's task ran"));
    }
}

// A rewritten override between the async base and the subclass-returning overrides.
class AsyncMiddleJob : Job
{
    public override async Task Run()
    {
        await base.Run();
        await Program.Pause();
        Console.WriteLine("  AsyncMiddleJob.Run");
    }
}

class SubclassOverAsyncMiddle : AsyncMiddleJob
{
    public override MyTask Run()
    {
        Console.WriteLine("  SubclassOverAsyncMiddle.Run");
        return MyTask.Started(() => Console.WriteLine("  SubclassOverAsyncMiddle.Run's task ran"));
    }
}

class SubclassOverAsyncMiddle2 : SubclassOverAsyncMiddle
{
    public override MyTask Run()
    {
        Console.WriteLine("  SubclassOverAsyncMiddle2.Run");
        return MyTask.Started(() => Console.WriteLine("  SubclassOverAsyncMiddle2.Run's task ran"));
    }
}

// Task<T>: a generic base, a subclass of Task<T> open and closed.
class Source<T>
{
    public virtual async Task<T> Get(T value)
    {
        await Program.Pause();
        Console.WriteLine($"  Source<{typeof(T).Name}>.Get");
        return value;
    }
}

class SubclassSource<T> : Source<T>
{
    public override MyTask<T> Get(T value)
    {
        Console.WriteLine($"  SubclassSource<{typeof(T).Name}>.Get");
        return MyTask<T>.Started(() => value);
    }
}

class SubclassSource2 : SubclassSource<int>
{
    public override MyTask<int> Get(int value)
    {
        Console.WriteLine("  SubclassSource2.Get");
        return MyTask<int>.Started(() => value * 10);
    }
}

class SubclassSource3 : SubclassSource2
{
    public override MyTask<int> Get(int value)
    {
        Console.WriteLine("  SubclassSource3.Get");
        return base.Get(value + 1);
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
    static async Task AsInterface(IJob job) => await job.Run();
    static async Task AsSubclassJob(SubclassJob job) => await job.Run();
    static async Task AsSubclassJob2(SubclassJob2 job) => await job.Run();
    static async Task AsSubclassOverAsyncMiddle(SubclassOverAsyncMiddle job) => await job.Run();
    static async Task<T> AsSource<T>(Source<T> source, T value) => await source.Get(value);
    static async Task<int> AsSourceOfInt(Source<int> source) => await source.Get(3);
    static async Task<int> AsSubclassSourceOfInt(SubclassSource<int> source) => await source.Get(4);
    static async Task<int> AsSubclassSource2(SubclassSource2 source) => await source.Get(5);

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");

            Job[] jobs =
            [
                new Job(), new SubclassJob(), new SubclassJob2(), new SubSubclassJob(),
                new AsyncMiddleJob(), new SubclassOverAsyncMiddle(), new SubclassOverAsyncMiddle2(),
            ];
            foreach (var job in jobs)
            {
                string name = job.GetType().Name;
                Console.WriteLine($"{name} as Job:");
                await AsJob(job);
                Console.WriteLine($"{name} as IJob:");
                await AsInterface(job);
                if (job is SubclassJob subclassJob)
                {
                    Console.WriteLine($"{name} as SubclassJob:");
                    await AsSubclassJob(subclassJob);
                }
                if (job is SubclassJob2 subclassJob2)
                {
                    Console.WriteLine($"{name} as SubclassJob2:");
                    await AsSubclassJob2(subclassJob2);
                }
                if (job is SubclassOverAsyncMiddle overMiddle)
                {
                    Console.WriteLine($"{name} as SubclassOverAsyncMiddle:");
                    await AsSubclassOverAsyncMiddle(overMiddle);
                }
            }

            (string Name, Source<int> Source)[] sources =
                [("Source<int>", new Source<int>()), ("SubclassSource<int>", new SubclassSource<int>()), ("SubclassSource2", new SubclassSource2()), ("SubclassSource3", new SubclassSource3())];
            foreach (var (name, source) in sources)
            {
                Console.WriteLine($"{name} as Source<int>:");
                Console.WriteLine($"  -> {await AsSourceOfInt(source)}");
                Console.WriteLine($"{name} as Source<T>:");
                Console.WriteLine($"  -> {await AsSource(source, 6)}");
                if (source is SubclassSource<int> subclass)
                {
                    Console.WriteLine($"{name} as SubclassSource<int>:");
                    Console.WriteLine($"  -> {await AsSubclassSourceOfInt(subclass)}");
                }
                if (source is SubclassSource2 subclass2)
                {
                    Console.WriteLine($"{name} as SubclassSource2:");
                    Console.WriteLine($"  -> {await AsSubclassSource2(subclass2)}");
                }
            }
            Console.WriteLine("SubclassSource<string> as Source<T>:");
            Console.WriteLine($"  -> {await AsSource(new SubclassSource<string>(), "s")}");
        }
    }
}
