// A callee that, after resuming, installs a SynchronizationContext and then returns or throws:
// classic async runs its caller's continuation right there only where it would run any inline
// (the caller captured that very context, or none while no context forbids it); otherwise it posts
// the caller to the context it captured, or queues it to the thread pool. The caller sees the
// context its callee left when it runs inline. Posts are counted per context; what the caller and
// the thread completing the gate see is printed once the caller's Task completed.
using System;
using System.Threading;
using System.Threading.Tasks;

sealed class CountingContext : SynchronizationContext
{
    public readonly string Name;
    public int Posts;
    public CountingContext(string name) => Name = name;
    public override void Post(SendOrPostCallback d, object? state)
    {
        Interlocked.Increment(ref Posts);
        ThreadPool.UnsafeQueueUserWorkItem(_ =>
        {
            var previous = Current;
            SetSynchronizationContext(this);
            try { d(state); }
            finally { SetSynchronizationContext(previous); }
        }, null);
    }
}

static class Program
{
    static TaskCompletionSource Gate = new();
    static Thread? Opener;
    static string? CallerSaw;
    static string? OpenerSaw;
    static readonly CountingContext Installed = new("installed");
    static readonly CountingContext Other = new("other");

    static string State() =>
        $"context={(SynchronizationContext.Current as CountingContext)?.Name ?? SynchronizationContext.Current?.GetType().Name ?? "none"} onOpener={Thread.CurrentThread == Opener}";

    static async Task Callee(bool throws)
    {
        await Gate.Task;
        SynchronizationContext.SetSynchronizationContext(Installed);
        if (throws)
            throw new InvalidOperationException("thrown by the callee");
    }

    static async Task Caller(SynchronizationContext? captured, bool throws)
    {
        SynchronizationContext.SetSynchronizationContext(captured);
        try
        {
            await Callee(throws);
            CallerSaw = $"  caller after the await: {State()}";
        }
        catch (InvalidOperationException e)
        {
            CallerSaw = $"  caller caught '{e.Message}': {State()}";
        }
    }

    static void Run(string scenario, SynchronizationContext? captured, bool throws)
    {
        Console.WriteLine(scenario);
        Gate = new TaskCompletionSource();
        Installed.Posts = Other.Posts = 0;
        var task = Caller(captured, throws);
        SynchronizationContext.SetSynchronizationContext(null);
        Opener = new Thread(() =>
        {
            Gate.SetResult();
            OpenerSaw = $"  opener after SetResult: {State()}";
        });
        Opener.Start();
        Opener.Join();
        task.GetAwaiter().GetResult();
        Console.WriteLine(CallerSaw);
        Console.WriteLine(OpenerSaw);
        Console.WriteLine($"  posts: installed={Installed.Posts} other={Other.Posts}");
    }

    static void Main()
    {
        foreach (var throws in new[] { false, true })
        {
            Run($"caller captured none, callee throws: {throws}", null, throws);
            Run($"caller captured the context the callee installs, callee throws: {throws}", Installed, throws);
            Run($"caller captured another context, callee throws: {throws}", Other, throws);
            Run($"caller captured the base context, callee throws: {throws}", new SynchronizationContext(), throws);
        }
    }
}
