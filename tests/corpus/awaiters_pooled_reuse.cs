// Pooled ValueTask methods ([AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))])
// awaited exactly once from rewritten methods in loops, many loops at once, so each box goes back to
// the pool and is reused by another call as soon as its result was taken; results of structs and
// references, failures, ConfigureAwait(false), and a custom task-like type whose builder pools its
// own one-shot sources and throws on a second GetResult or a stale token.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

readonly record struct Pair(long Sum, string? Tag);

sealed class PooledSource<T> : IValueTaskSource<T>
{
    private static readonly ConcurrentBag<PooledSource<T>> pool = new();
    public static int Created;
    private ManualResetValueTaskSourceCore<T> core;
    public static PooledSource<T> Rent()
    {
        if (pool.TryTake(out var s)) return s;
        Interlocked.Increment(ref Created);
        return new PooledSource<T>();
    }
    public short Version => core.Version;
    public void SetResult(T v) => core.SetResult(v);
    public void SetException(Exception e) => core.SetException(e);
    public T GetResult(short token)
    {
        try { return core.GetResult(token); }
        finally { core.Reset(); pool.Add(this); }
    }
    public ValueTaskSourceStatus GetStatus(short token) => core.GetStatus(token);
    public void OnCompleted(Action<object?> c, object? s, short t, ValueTaskSourceOnCompletedFlags f) => core.OnCompleted(c, s, t, f);
}

[AsyncMethodBuilder(typeof(OneShotBuilder<>))]
readonly struct OneShot<T>
{
    private readonly PooledSource<T>? source; private readonly short token; private readonly T value;
    public OneShot(PooledSource<T> s) { source = s; token = s.Version; value = default!; }
    public OneShot(T v) { source = null; token = 0; value = v; }
    public ValueTaskAwaiter<T> GetAwaiter() => (source is null ? new ValueTask<T>(value) : new ValueTask<T>(source, token)).GetAwaiter();
}

struct OneShotBuilder<T>
{
    private PooledSource<T>? source;
    private bool done; private T result;
    public static OneShotBuilder<T> Create() => default;
    public OneShot<T> Task => source is null && done ? new OneShot<T>(result) : new OneShot<T>(source ??= PooledSource<T>.Rent());
    public void Start<TSM>(ref TSM sm) where TSM : IAsyncStateMachine => sm.MoveNext();
    public void SetStateMachine(IAsyncStateMachine sm) { }
    public void SetResult(T r) { if (source is null) { done = true; result = r; } else source.SetResult(r); }
    public void SetException(Exception e) => (source ??= PooledSource<T>.Rent()).SetException(e);
    public void AwaitOnCompleted<TA, TSM>(ref TA a, ref TSM sm) where TA : INotifyCompletion where TSM : IAsyncStateMachine
    {
        source ??= PooledSource<T>.Rent();
        var box = new Runner<TSM>(sm);
        a.OnCompleted(box.Run);
    }
    public void AwaitUnsafeOnCompleted<TA, TSM>(ref TA a, ref TSM sm) where TA : ICriticalNotifyCompletion where TSM : IAsyncStateMachine
    {
        source ??= PooledSource<T>.Rent();
        var box = new Runner<TSM>(sm);
        a.UnsafeOnCompleted(box.Run);
    }
    // Classic builders box the state machine once; this one copies it at each await, so the copy
    // must see the builder's source: it is set above before the copy.
    sealed class Runner<TSM>(TSM sm) where TSM : IAsyncStateMachine
    {
        private TSM machine = sm;
        public void Run() => machine.MoveNext();
    }
}

static class Program
{
    static bool Suspend;

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    static async ValueTask<Pair> PooledPair(int i, string? tag)
    {
        if (Suspend || i % 3 == 0) await Task.Yield();
        if (i == -1) throw new InvalidOperationException("pooled failure");
        return new Pair(i * 2L, tag);
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    static async ValueTask<string> PooledString(int i)
    {
        var p = await PooledPair(i, "t" + (i % 5));
        if (Suspend) await Task.Yield();
        return p.Tag + p.Sum;
    }

    static async Task<long> Loop(int id, int n)
    {
        long sum = 0;
        int tags = 0;
        for (int i = 0; i < n; i++)
        {
            var p = await PooledPair(i, i % 2 == 0 ? null : "x");
            sum += p.Sum + id;
            if (p.Tag is not null) tags++;
            string s = await PooledString(i).ConfigureAwait(false);
            sum += s.Length;
            if (i % 50 == 25)
            {
                try { await PooledPair(-1, null); }
                catch (InvalidOperationException) { sum += 1_000_000; }
            }
        }
        return sum * 1000 + tags;
    }

    static async OneShot<int> ShotLeaf(int i)
    {
        if (Suspend || i % 4 == 1) await Task.Yield();
        if (i == 13) throw new FormatException("shot 13");
        return i * 3;
    }

    static async OneShot<long> ShotMiddle(int i) => await ShotLeaf(i) + (long)await RewrittenInner(i);

    static async Task<int> RewrittenInner(int i)
    {
        if (Suspend) await Task.Yield();
        return i;
    }

    static async Task<long> ShotLoop(int n)
    {
        long sum = 0;
        for (int i = 0; i < n; i++)
        {
            try { sum += await ShotMiddle(i); }
            catch (FormatException e) { sum += e.Message.Length * 1000; }
        }
        return sum;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            var loops = Enumerable.Range(0, 6).Select(id => Task.Run(() => Loop(id, 300))).ToArray();
            var results = await Task.WhenAll(loops);
            Console.WriteLine($"suspend={suspend} loops: {string.Join(",", results)}");
            var shots = Enumerable.Range(0, 4).Select(_ => Task.Run(() => ShotLoop(100))).ToArray();
            Console.WriteLine($"shots: {string.Join(",", await Task.WhenAll(shots))} single {await ShotLoop(30)}");
        }
    }
}
