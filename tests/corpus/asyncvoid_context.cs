// async void methods (Roslyn compiles them with AsyncVoidMethodBuilder whether or not runtime-async
// is on) calling and awaiting rewritten methods: under a SynchronizationContext they report
// OperationStarted/OperationCompleted and post their exceptions to it; continuations run on the
// context; without a context they still run and complete, and an async void lambda signals a
// TaskCompletionSource the caller awaits.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class CountingLoop : SynchronizationContext
{
    private readonly BlockingCollection<(SendOrPostCallback, object?)> queue = new();
    private int outstanding;
    public readonly List<string> Events = new();
    public Thread? LoopThread;

    public override void Post(SendOrPostCallback d, object? state) => queue.Add((d, state));

    public override void OperationStarted()
    {
        Events.Add("started");
        Interlocked.Increment(ref outstanding);
    }

    public override void OperationCompleted()
    {
        Events.Add("completed");
        if (Interlocked.Decrement(ref outstanding) == 0)
            queue.Add((_ => queue.CompleteAdding(), null));
    }

    public override SynchronizationContext CreateCopy() => this;

    /// <summary>Runs <paramref name="start"/> on the loop and pumps until every async void operation completed.</summary>
    public void Run(Action start)
    {
        var thread = new Thread(() =>
        {
            SetSynchronizationContext(this);
            OperationStarted();
            start();
            OperationCompleted();
            foreach (var (callback, state) in queue.GetConsumingEnumerable())
            {
                try { callback(state); }
                catch (Exception e) { Events.Add("loop caught " + e.GetType().Name + ": " + e.Message); }
            }
        });
        LoopThread = thread;
        thread.Start();
        thread.Join();
    }
}

static class Program
{
    static bool Suspend;
    static CountingLoop Loop = null!;

    static async Task<int> Compute(int v)
    {
        if (Suspend) await Task.Delay(1);
        return v * 2;
    }

    static void Note(string what) =>
        Loop.Events.Add(what + " on loop " + (Thread.CurrentThread == Loop.LoopThread).ToString().ToLowerInvariant());

    static async void FireAndForget(int v)
    {
        int r = await Compute(v);
        Note("fire-and-forget got " + r);
        r += await Compute(r);
        Note("fire-and-forget got " + r);
    }

    static async void Throws()
    {
        await Compute(1);
        Note("thrower before throwing");
        throw new InvalidOperationException("from async void");
    }

    static async Task<string> WithoutContext()
    {
        var done = new TaskCompletionSource<string>();
        Action start = async () =>
        {
            int r = await Compute(21);
            done.SetResult("lambda computed " + r);
        };
        start();
        return await done.Task;
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Loop = new CountingLoop();
            Loop.Run(() =>
            {
                FireAndForget(5);
                Note("after starting fire-and-forget");
            });
            foreach (var e in Loop.Events) Console.WriteLine("  " + e);
            Loop = new CountingLoop();
            Loop.Run(Throws);
            foreach (var e in Loop.Events) Console.WriteLine("  " + e);
            Console.WriteLine(WithoutContext().GetAwaiter().GetResult());
        }
    }
}
