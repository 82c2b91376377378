// A non-async override's task completed on the caller's own SynchronizationContext: classic async
// runs the caller's continuation inline there (it is already on the context it captured). A fix for
// ConfigureAwait(false) through such overrides (configureawait_foreign_overrides) had Async2 post it
// once more, after the code that completed the task. Found in review.
using System;
using System.Collections.Concurrent;
using System.Threading;
using System.Threading.Tasks;

sealed class Loop : SynchronizationContext
{
    readonly BlockingCollection<(SendOrPostCallback, object?)> _q = new();
    public int Posts;
    public override void Post(SendOrPostCallback d, object? s) { Posts++; _q.Add((d, s)); }
    public void Run(Task until)
    {
        SetSynchronizationContext(this);
        until.ContinueWith(_ => _q.CompleteAdding(), TaskScheduler.Default);
        foreach (var (d, s) in _q.GetConsumingEnumerable()) d(s);
        SetSynchronizationContext(null);
    }
}

abstract class Source { public abstract Task<int> NextAsync(); }
sealed class AsyncSource : Source { public override async Task<int> NextAsync() { await Task.Yield(); return 1; } }
sealed class Promised : Source
{
    public readonly TaskCompletionSource<int> P = new();
    public override Task<int> NextAsync() => P.Task;
}

static class Program
{
    static async Task Consume(Source s)
    {
        int r = await s.NextAsync();
        Console.WriteLine($"caller resumed with {r}");
    }
    static void Main()
    {
        _ = new AsyncSource();
        var loop = new Loop();
        var p = new Promised();
        SynchronizationContext.SetSynchronizationContext(loop);
        var t = Consume(p);
        loop.Post(_ => { Console.WriteLine("completing"); p.P.SetResult(42); Console.WriteLine("after SetResult"); }, null);
        loop.Run(t);
        Console.WriteLine($"posts {loop.Posts}");
    }
}
