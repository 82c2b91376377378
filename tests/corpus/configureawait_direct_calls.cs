// ConfigureAwait(false) and (true) on awaits of the program's own async methods, which Async2
// calls directly (no Task) and must still resume where classic async would: under a
// single-threaded SynchronizationContext, a callee completed from another thread, the caller
// continuing on that thread after ConfigureAwait(false) and posted back after (true). Task,
// Task<T>, ValueTask and ValueTask<T> callees, a ValueTask local read again after its await,
// virtual and interface calls, a callee that completes at once, and exceptions through configured
// awaits.
using System;
using System.Collections.Concurrent;
using System.Threading;
using System.Threading.Tasks;

sealed class Loop : SynchronizationContext
{
    private readonly BlockingCollection<(SendOrPostCallback, object?)> _queue = new();
    public int Posts;
    public override void Post(SendOrPostCallback callback, object? state) { Interlocked.Increment(ref Posts); _queue.Add((callback, state)); }
    public void Run(Func<Task> body)
    {
        SetSynchronizationContext(this);
        var task = body();
        task.ContinueWith(_ => _queue.CompleteAdding(), TaskScheduler.Default);
        foreach (var (callback, state) in _queue.GetConsumingEnumerable())
            callback(state);
        task.GetAwaiter().GetResult();
    }
}

interface IWork { Task<int> Run(int x); }

class Work : IWork
{
    public virtual async Task<int> Run(int x) { await Program.Gate(); return x * 2; }
}

static class Program
{
    static Loop? s_loop;
    static bool s_suspend;

    static string Where() => SynchronizationContext.Current == s_loop ? "loop" : "off";

    public static async Task Gate()
    {
        if (!s_suspend)
            return;
        var gate = new TaskCompletionSource();
        // Long enough for the await to come first even on a loaded machine: a gate completed
        // before it lets the callee finish synchronously, on the loop, in classic async too
        // (with 5 ms, 2 runs in 40 of the classic build did so while the test suite ran).
        new Thread(() => { Thread.Sleep(100); gate.SetResult(); }).Start();
        await gate.Task.ConfigureAwait(false);
    }

    static async Task<int> Value(int x) { await Gate(); return x + 1; }
    static async Task Nothing() { await Gate(); }
    static async ValueTask<int> ValueV(int x) { await Gate(); return x + 2; }
    static async ValueTask NothingV() { await Gate(); }
    static async Task<int> Fails() { await Gate(); throw new InvalidOperationException("failed"); }

    static async Task<string> Callers()
    {
        var log = "";
        log += $"{await Value(1).ConfigureAwait(true)}:{Where()} ";
        log += $"{await Value(2).ConfigureAwait(false)}:{Where()} ";
        await Nothing().ConfigureAwait(false);
        log += $"void:{Where()} ";
        return log;
    }

    static async Task<string> ValueTaskCallers()
    {
        var log = "";
        log += $"{await ValueV(1).ConfigureAwait(true)}:{Where()} ";
        log += $"{await ValueV(2).ConfigureAwait(false)}:{Where()} ";
        await NothingV().ConfigureAwait(true);
        log += $"void:{Where()} ";
        return log;
    }

    // A ValueTask local read again after its configured await: the store to it must stay.
    static async Task<string> NamedValueTask()
    {
        var pending = ValueV(5);
        int result = await pending.ConfigureAwait(false);
        var again = pending;
        return $"{result}:{Where()} default={again.Equals(default(ValueTask<int>))}";
    }

    static async Task<string> DispatchedCallers()
    {
        Work work = new Work();
        IWork asInterface = work;
        var log = $"{await work.Run(3).ConfigureAwait(false)}:{Where()} ";
        return log + $"{await asInterface.Run(4).ConfigureAwait(false)}:{Where()}";
    }

    static async Task<string> Failing()
    {
        try
        {
            await Fails().ConfigureAwait(false);
            return "no exception";
        }
        catch (InvalidOperationException e)
        {
            return $"{e.Message}:{Where()}";
        }
    }

    static async Task Main()
    {
        foreach (bool suspend in new[] { false, true })
        {
            s_suspend = suspend;
            foreach (var (name, body) in new (string, Func<Task<string>>)[]
            {
                ("Task", Callers), ("ValueTask", ValueTaskCallers), ("named ValueTask", NamedValueTask),
                ("virtual and interface", DispatchedCallers), ("exception", Failing),
            })
            {
                s_loop = new Loop();
                string result = "";
                s_loop.Run(async () => result = await body());
                Console.WriteLine($"suspend={suspend} {name}: {result} (posts {s_loop.Posts})");
            }
        }
        await Task.CompletedTask;
    }
}
