// Compiled into every corpus program (and every program in tests/expected), classic and
// runtime-async alike: a single-threaded SynchronizationContext like a UI message loop, running the
// callbacks posted to it one at a time, in order, on its own thread.
using System;
using System.Collections.Concurrent;
using System.Threading;
using System.Threading.Tasks;

sealed class SingleThreadLoop : SynchronizationContext
{
    private readonly BlockingCollection<(SendOrPostCallback Callback, object? State)> queue = new();

    public SingleThreadLoop(string name = "loop", int maxStackSize = 0)
    {
        Name = name;
        Thread = new Thread(() =>
        {
            SetSynchronizationContext(this);
            foreach (var (callback, state) in queue.GetConsumingEnumerable())
                callback(state);
        }, maxStackSize) { IsBackground = true };
        Thread.Start();
    }

    public string Name { get; }

    public Thread Thread { get; }

    /// <summary>Whether the caller runs on the loop's thread, with the loop as its context.</summary>
    public bool IsCurrent => Thread.CurrentThread == Thread && Current == this;

    public override void Post(SendOrPostCallback d, object? state) => queue.Add((d, state));

    /// <summary>As a UI loop does: runs the callback on the loop and waits for it.</summary>
    public override void Send(SendOrPostCallback d, object? state)
    {
        using var done = new ManualResetEventSlim();
        queue.Add((s => { try { d(s); } finally { done.Set(); } }, state));
        done.Wait();
    }

    public override SynchronizationContext CreateCopy() => this;

    /// <summary>Starts <paramref name="body"/> on the loop and blocks until its task completes, rethrowing its exception.</summary>
    public void RunUntilComplete(Func<Task> body)
    {
        var started = new TaskCompletionSource<Task>();
        Post(_ => started.SetResult(body()), null);
        started.Task.Result.GetAwaiter().GetResult();
    }

    /// <summary>Runs what was already posted, then ends the loop's thread.</summary>
    public void Stop()
    {
        queue.CompleteAdding();
        Thread.Join();
    }
}
