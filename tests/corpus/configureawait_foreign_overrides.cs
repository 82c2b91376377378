// await x.M().ConfigureAwait(false), where M is virtual or an interface method with a rewritten
// implementation (so the call goes through an entry) and x's is not async: a pass-through
// decorator, a TaskCompletionSource, a ValueTask over an IValueTaskSource. The caller blocks on
// its SynchronizationContext (sync over async, as a UI thread does), which runs no posts: classic
// async completes, since ConfigureAwait(false) keeps the continuation off the context. Async2's
// stand-in frame for the override waited with the context captured, and the caller never completed.
// A caller that captures the context (last case) must still be posted to it.
using System;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

sealed class BlockedContext : SynchronizationContext
{
    public int Posts;
    public override void Post(SendOrPostCallback callback, object? state) => Interlocked.Increment(ref Posts);
}

sealed class PumpingContext : SynchronizationContext
{
    public int Posts;
    public override void Post(SendOrPostCallback callback, object? state)
    {
        Interlocked.Increment(ref Posts);
        ThreadPool.QueueUserWorkItem(_ =>
        {
            SetSynchronizationContext(this);
            callback(state);
        });
    }
}

interface IStore { Task<int> LoadAsync(int id); }

sealed class Store : IStore
{
    public async Task<int> LoadAsync(int id)
    {
        await Task.Delay(10).ConfigureAwait(false);
        return id * 2;
    }
}

sealed class LoggingStore(IStore inner) : IStore
{
    public Task<int> LoadAsync(int id)
    {
        Console.WriteLine($"load {id}");
        return inner.LoadAsync(id);
    }
}

abstract class Source { public abstract Task<int> NextAsync(); }
sealed class AsyncSource : Source { public override async Task<int> NextAsync() { await Task.Yield(); return 1; } }
sealed class PromisedSource : Source
{
    public readonly TaskCompletionSource<int> Promise = new(TaskCreationOptions.RunContinuationsAsynchronously);
    public override Task<int> NextAsync() => Promise.Task;
}

// Continues on the thread pool whatever the flags say, as a Pipe without its SynchronizationContext does.
sealed class PoolValueSource : IValueTaskSource<int>
{
    private Action<object?>? _continuation;
    private object? _state;
    private int _result;
    private bool _done;

    public ValueTaskSourceStatus GetStatus(short token) => Volatile.Read(ref _done) ? ValueTaskSourceStatus.Succeeded : ValueTaskSourceStatus.Pending;
    public int GetResult(short token) => _result;
    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        (_continuation, _state) = (continuation, state);

    public void Complete(int value)
    {
        _result = value;
        Volatile.Write(ref _done, true);
        var (continuation, state) = (_continuation!, _state);
        ThreadPool.UnsafeQueueUserWorkItem(_ => continuation(state), null);
    }
}

abstract class Reader { public abstract ValueTask<int> ReadAsync(); }
sealed class AsyncReader : Reader { public override async ValueTask<int> ReadAsync() { await Task.Yield(); return 1; } }
sealed class PooledReader : Reader
{
    public readonly PoolValueSource Source = new();
    public override ValueTask<int> ReadAsync() => new(Source, 0);
}

static class Program
{
    static async Task<int> Load(IStore store) => await store.LoadAsync(21).ConfigureAwait(false) + 1;
    static async Task<int> Next(Source source) => await source.NextAsync().ConfigureAwait(false) * 10;
    static async Task<int> Read(Reader reader) => await reader.ReadAsync().ConfigureAwait(false) + 100;
    static async Task<int> LoadOnContext(IStore store) => await store.LoadAsync(5) + (SynchronizationContext.Current is PumpingContext ? 1000 : 0);

    static void Blocking(string name, Func<Task<int>> start, Action? complete = null)
    {
        var context = new BlockedContext();
        SynchronizationContext.SetSynchronizationContext(context);
        var task = start();
        complete?.Invoke();
        bool done = task.Wait(10_000);
        SynchronizationContext.SetSynchronizationContext(null);
        Console.WriteLine($"{name}: completed {done}{(done ? $", result {task.Result}" : "")}, posts {context.Posts}");
    }

    static void Main()
    {
        Blocking("decorator", () => Load(new LoggingStore(new Store())));
        var promised = new PromisedSource();
        Blocking("promise", () => Next(promised), () => promised.Promise.SetResult(4));
        var pooled = new PooledReader();
        Blocking("value task source", () => Read(pooled), () => pooled.Source.Complete(41));
        _ = new AsyncSource();
        _ = new AsyncReader();

        var pumping = new PumpingContext();
        SynchronizationContext.SetSynchronizationContext(pumping);
        var onContext = LoadOnContext(new LoggingStore(new Store()));
        SynchronizationContext.SetSynchronizationContext(null);
        Console.WriteLine($"captured: result {onContext.GetAwaiter().GetResult()}, posts {pumping.Posts}");
    }
}
