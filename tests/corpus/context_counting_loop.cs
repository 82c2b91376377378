// A single-threaded SynchronizationContext that counts Post, Send, OperationStarted and
// OperationCompleted: how many posts a chain of rewritten methods costs when its gate completes on
// the loop, on another thread, asynchronously, through a middle frame that left with
// ConfigureAwait(false); async void methods awaiting rewritten ones; async methods started inside
// a Post callback; SemaphoreSlim(1).WaitAsync waiters taking a critical section with awaits inside
// in FIFO order; ContinueWith on FromCurrentSynchronizationContext mixed with awaits. Only the loop
// logs, with sequence numbers.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class CountingLoop : SynchronizationContext
{
    private readonly BlockingCollection<(SendOrPostCallback, object?)> queue = new();
    public readonly Thread Thread;
    public int Posts, Sends, Started, Completed;

    public CountingLoop()
    {
        Thread = new Thread(() =>
        {
            SetSynchronizationContext(this);
            foreach (var (d, s) in queue.GetConsumingEnumerable()) d(s);
        }) { IsBackground = true };
        Thread.Start();
    }

    public bool IsCurrent => Thread.CurrentThread == Thread && Current == this;

    public override void Post(SendOrPostCallback d, object? state)
    {
        Interlocked.Increment(ref Posts);
        queue.Add((d, state));
    }

    public override void Send(SendOrPostCallback d, object? state)
    {
        Interlocked.Increment(ref Sends);
        if (Thread.CurrentThread == Thread) { d(state); return; }
        using var done = new ManualResetEventSlim();
        queue.Add((s => { try { d(s); } finally { done.Set(); } }, state));
        done.Wait();
    }

    public override void OperationStarted() => Interlocked.Increment(ref Started);
    public override void OperationCompleted() => Interlocked.Increment(ref Completed);
    public override SynchronizationContext CreateCopy() => this;

    public string Counts() => $"posts {Posts}, sends {Sends}, started {Started}, completed {Completed}";
    public void Reset() { Posts = Sends = Started = Completed = 0; }

    public void RunUntilComplete(Func<Task> body)
    {
        var started = new TaskCompletionSource<Task>();
        queue.Add((_ => started.SetResult(body()), null));
        started.Task.Result.GetAwaiter().GetResult();
    }
}

static class Program
{
    static bool Suspend;
    static CountingLoop Loop = null!;
    static readonly List<string> log = new();
    static int seq;

    static void Log(string s) => log.Add($"{++seq,2} {s}{(Loop.IsCurrent ? "" : " [off loop]")}");

    static void Flush(string title)
    {
        Console.WriteLine(title + " (" + Loop.Counts() + ")");
        foreach (var l in log) Console.WriteLine("  " + l);
        log.Clear();
        seq = 0;
        Loop.Reset();
    }

    static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<int> Leaf(Task<int> gate)
    {
        int v = await gate;
        Log("leaf resumed");
        return v + 1;
    }

    static async Task<int> Middle(Task<int> gate, bool leave)
    {
        int v = leave ? await Leaf(gate).ConfigureAwait(false) : await Leaf(gate);
        if (!leave) Log("middle resumed");
        return v * 2;
    }

    static async Task<int> Outer(Task<int> gate, bool leave = false)
    {
        await Pause();
        int v = await Middle(gate, leave);
        Log("outer resumed");
        return v + 100;
    }

    static void CompleteOnThread(TaskCompletionSource<int> tcs, int v)
    {
        var t = new Thread(() => tcs.SetResult(v));
        t.Start();
        t.Join();
    }

    static async void Fire(string name, Task<int> gate, TaskCompletionSource<string> done)
    {
        Log(name + " fired");
        int v = await Outer(gate);
        Log(name + " got " + v);
        await Pause();
        done.SetResult(name);
    }

    static async Task<string> Critical(SemaphoreSlim sem, string name, Task<int> gate)
    {
        Log(name + " waits");
        await sem.WaitAsync();
        try
        {
            Log(name + " entered");
            await Pause();
            if (name == "k1") await gate;
            Log(name + " leaving");
            return name;
        }
        finally
        {
            sem.Release();
        }
    }

    static async Task Body()
    {
        Loop.Reset();
        var g1 = new TaskCompletionSource<int>();
        var o1 = Outer(g1.Task);
        await Pause();
        Log("SetResult on loop");
        g1.SetResult(1);
        Log("SetResult returned, " + await o1);
        Flush("gate completed on the loop");

        var g2 = new TaskCompletionSource<int>();
        var o2 = Outer(g2.Task);
        await Pause();
        CompleteOnThread(g2, 2);
        Log("thread done");
        Log("result " + await o2);
        Flush("gate completed on another thread");

        var g3 = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var o3a = Outer(g3.Task);
        var o3b = Outer(g3.Task);
        await Pause();
        g3.SetResult(3);
        Log("SetResult returned");
        Log("results " + await o3a + " " + await o3b);
        Flush("asynchronous gate completed on the loop");

        var g4 = new TaskCompletionSource<int>();
        var o4 = Outer(g4.Task, leave: true);
        await Pause();
        g4.SetResult(4);
        Log("SetResult returned");
        Log("result " + await o4);
        Flush("middle frame leaves with ConfigureAwait(false), gate on the loop");

        var g4b = new TaskCompletionSource<int>();
        var o4b = Outer(g4b.Task, leave: true);
        await Pause();
        CompleteOnThread(g4b, 5);
        Log("thread done");
        Log("result " + await o4b);
        Flush("middle frame leaves with ConfigureAwait(false), gate on another thread");

        var g5 = new TaskCompletionSource<int>();
        var d1 = new TaskCompletionSource<string>();
        var d2 = new TaskCompletionSource<string>();
        Fire("v1", g5.Task, d1);
        Fire("v2", g5.Task, d2);
        Log("fired both");
        g5.SetResult(6);
        Log("SetResult returned");
        Log("done " + await d1.Task + " " + await d2.Task);
        Flush("async void");

        var g6 = new TaskCompletionSource<int>();
        Task<int>? posted = null;
        SynchronizationContext.Current!.Post(_ =>
        {
            Log("in posted callback");
            posted = Outer(g6.Task);
            Log("callback returns");
        }, null);
        Log("posted");
        await Task.Yield();
        Log("after yield, started " + (posted != null));
        g6.SetResult(7);
        Log("result " + await posted!);
        Flush("async method started from a Post callback");

        var sem = new SemaphoreSlim(1);
        var g7 = new TaskCompletionSource<int>();
        var ks = new List<Task<string>>();
        for (int i = 1; i <= 4; i++) ks.Add(Critical(sem, "k" + i, g7.Task));
        Log("all waiting");
        await Pause();
        g7.SetResult(8);
        Log("gate set");
        foreach (var k in ks) Log("finished " + await k);
        Flush("SemaphoreSlim critical section");

        var g8 = new TaskCompletionSource<int>();
        var ui = TaskScheduler.FromCurrentSynchronizationContext();
        var c1 = g8.Task.ContinueWith(_ => Log("continuation queued"), CancellationToken.None, TaskContinuationOptions.None, ui);
        var o8 = Outer(g8.Task);
        var c2 = g8.Task.ContinueWith(_ => Log("continuation sync"), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, ui);
        await Pause();
        CompleteOnThread(g8, 9);
        Log("thread done");
        await c1; await c2;
        Log("result " + await o8);
        Flush("ContinueWith on the context, gate on another thread");
    }

    static async Task Main()
    {
        Loop = new CountingLoop();
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Loop.RunUntilComplete(Body);
        }
        await Task.CompletedTask;
    }
}
