// Hand-written async coordination primitives as libraries write them (AsyncLock over SemaphoreSlim
// and over a queue of TaskCompletionSources, AsyncManualResetEvent, AsyncAutoResetEvent,
// AsyncCountdownEvent, AsyncBarrier, AsyncLazy, AsyncReaderWriterLock, a bounded queue and a
// one-shot event), each used from chains of async methods 2-4 deep with optional suspension in the
// middle; their TaskCompletionSources run continuations inline or asynchronously. Every step is
// logged in order on one SingleThreadLoop, so what runs inside a Set/Release is visible.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

static class Log
{
    public static SingleThreadLoop Loop = null!;
    static int seq;
    static readonly List<string> lines = new();
    public static void W(string s) => lines.Add($"{++seq,3} {s}{(Loop.IsCurrent ? "" : " [off loop]")}");
    public static void Flush(string title)
    {
        Console.WriteLine(title);
        foreach (var l in lines) Console.WriteLine("  " + l);
        lines.Clear();
        seq = 0;
    }
}

static class Opts
{
    public static bool AsyncContinuations;
    public static TaskCreationOptions Tco => AsyncContinuations ? TaskCreationOptions.RunContinuationsAsynchronously : TaskCreationOptions.None;
}

sealed class SemLock
{
    readonly SemaphoreSlim sem = new(1, 1);
    public async Task<Releaser> LockAsync(string who)
    {
        Log.W(who + " wants sem lock");
        await sem.WaitAsync();
        Log.W(who + " holds sem lock");
        return new Releaser(() => { Log.W(who + " releasing sem lock"); sem.Release(); Log.W(who + " released sem lock"); });
    }
}

readonly struct Releaser(Action release) : IDisposable
{
    public void Dispose() => release();
}

sealed class QueueLock
{
    readonly Queue<(string, TaskCompletionSource<Releaser>)> waiters = new();
    bool held;
    public Task<Releaser> LockAsync(string who)
    {
        lock (waiters)
        {
            if (!held)
            {
                held = true;
                Log.W(who + " takes queue lock at once");
                return Task.FromResult(Make(who));
            }
            var tcs = new TaskCompletionSource<Releaser>(Opts.Tco);
            waiters.Enqueue((who, tcs));
            Log.W(who + " queued for queue lock");
            return tcs.Task;
        }
    }
    Releaser Make(string who) => new Releaser(() => Release(who));
    void Release(string who)
    {
        TaskCompletionSource<Releaser>? next = null;
        string nextWho = "";
        lock (waiters)
        {
            if (waiters.Count > 0) (nextWho, next) = waiters.Dequeue();
            else held = false;
            Log.W(who + " releases queue lock" + (next != null ? " to " + nextWho : ""));
            // hand over inside the lock, as some libraries do
            next?.SetResult(Make(nextWho));
        }
        Log.W(who + " release returned");
    }
}

sealed class AsyncManualResetEvent
{
    volatile TaskCompletionSource<bool> tcs = new(Opts.Tco);
    public Task WaitAsync() => tcs.Task;
    public void Set() => tcs.TrySetResult(true);
    public void Reset()
    {
        while (true)
        {
            var t = tcs;
            if (!t.Task.IsCompleted || Interlocked.CompareExchange(ref tcs, new TaskCompletionSource<bool>(Opts.Tco), t) == t)
                return;
        }
    }
}

sealed class AsyncAutoResetEvent
{
    readonly Queue<TaskCompletionSource<bool>> waits = new();
    bool signaled;
    public Task WaitAsync()
    {
        lock (waits)
        {
            if (signaled) { signaled = false; return Task.CompletedTask; }
            var t = new TaskCompletionSource<bool>(Opts.Tco);
            waits.Enqueue(t);
            return t.Task;
        }
    }
    public void Set()
    {
        TaskCompletionSource<bool>? toRelease = null;
        lock (waits)
        {
            if (waits.Count > 0) toRelease = waits.Dequeue();
            else if (!signaled) signaled = true;
        }
        toRelease?.SetResult(true);
    }
}

sealed class AsyncCountdownEvent(int count)
{
    readonly AsyncManualResetEvent amre = new();
    int count = count;
    public Task WaitAsync() => amre.WaitAsync();
    public void Signal()
    {
        int left = Interlocked.Decrement(ref count);
        Log.W("countdown signal, left " + left);
        if (left == 0) amre.Set();
        Log.W("countdown signal returns, left " + left);
    }
    public Task SignalAndWait() { Signal(); return WaitAsync(); }
}

sealed class AsyncBarrier(int participants)
{
    int remaining = participants;
    TaskCompletionSource<bool> tcs = new(Opts.Tco);
    public Task SignalAndWait(string who)
    {
        var t = tcs;
        if (Interlocked.Decrement(ref remaining) == 0)
        {
            remaining = participants;
            tcs = new TaskCompletionSource<bool>(Opts.Tco);
            Log.W(who + " completes the phase");
            t.SetResult(true);
            Log.W(who + " phase completion returned");
        }
        return t.Task;
    }
}

sealed class AsyncLazy<T>(Func<Task<T>> factory) : Lazy<Task<T>>(factory)
{
    public System.Runtime.CompilerServices.TaskAwaiter<T> GetAwaiter() => Value.GetAwaiter();
}

sealed class AsyncReaderWriterLock
{
    readonly Task<Releaser> readerReleaser, writerReleaser;
    readonly Queue<TaskCompletionSource<Releaser>> waitingWriters = new();
    TaskCompletionSource<Releaser> waitingReader = new(Opts.Tco);
    int readersWaiting;
    int status; // 0 free, -1 writer, >0 readers

    public AsyncReaderWriterLock()
    {
        readerReleaser = Task.FromResult(new Releaser(() => ReaderRelease()));
        writerReleaser = Task.FromResult(new Releaser(() => WriterRelease()));
    }

    public Task<Releaser> ReaderLockAsync()
    {
        lock (waitingWriters)
        {
            if (status >= 0 && waitingWriters.Count == 0) { ++status; return readerReleaser; }
            ++readersWaiting;
            return waitingReader.Task.ContinueWith(t => t.Result, CancellationToken.None,
                TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.FromCurrentSynchronizationContext());
        }
    }

    public Task<Releaser> WriterLockAsync()
    {
        lock (waitingWriters)
        {
            if (status == 0) { status = -1; return writerReleaser; }
            var w = new TaskCompletionSource<Releaser>(Opts.Tco);
            waitingWriters.Enqueue(w);
            return w.Task;
        }
    }

    void ReaderRelease()
    {
        TaskCompletionSource<Releaser>? toWake = null;
        lock (waitingWriters)
        {
            --status;
            Log.W("reader released, status " + status);
            if (status == 0 && waitingWriters.Count > 0) { status = -1; toWake = waitingWriters.Dequeue(); }
        }
        toWake?.SetResult(new Releaser(() => WriterRelease()));
        Log.W("reader release returned");
    }

    void WriterRelease()
    {
        TaskCompletionSource<Releaser>? toWake = null;
        bool toWakeIsWriter = false;
        lock (waitingWriters)
        {
            Log.W("writer released");
            if (waitingWriters.Count > 0) { toWake = waitingWriters.Dequeue(); toWakeIsWriter = true; }
            else if (readersWaiting > 0)
            {
                toWake = waitingReader;
                status = readersWaiting;
                readersWaiting = 0;
                waitingReader = new TaskCompletionSource<Releaser>(Opts.Tco);
            }
            else status = 0;
        }
        toWake?.SetResult(toWakeIsWriter ? new Releaser(() => WriterRelease()) : new Releaser(() => ReaderRelease()));
        Log.W("writer release returned");
    }
}

sealed class BoundedQueue<T>(int capacity)
{
    readonly Queue<T> items = new();
    readonly Queue<TaskCompletionSource<T>> takers = new();
    readonly Queue<(TaskCompletionSource<bool>, T)> putters = new();

    public Task PutAsync(T item)
    {
        TaskCompletionSource<T>? taker = null;
        lock (items)
        {
            if (takers.Count > 0) taker = takers.Dequeue();
            else if (items.Count < capacity) { items.Enqueue(item); return Task.CompletedTask; }
            else
            {
                var p = new TaskCompletionSource<bool>(Opts.Tco);
                putters.Enqueue((p, item));
                return p.Task;
            }
        }
        taker.SetResult(item);
        return Task.CompletedTask;
    }

    public Task<T> TakeAsync()
    {
        TaskCompletionSource<bool>? putter = null;
        T result;
        lock (items)
        {
            if (items.Count == 0)
            {
                var t = new TaskCompletionSource<T>(Opts.Tco);
                takers.Enqueue(t);
                return t.Task;
            }
            result = items.Dequeue();
            if (putters.Count > 0)
            {
                var (p, item) = putters.Dequeue();
                items.Enqueue(item);
                putter = p;
            }
        }
        putter?.SetResult(true);
        return Task.FromResult(result);
    }
}

sealed class AsyncEvent
{
    readonly List<Func<string, Task>> handlers = new();
    readonly TaskCompletionSource<string> fired = new(Opts.Tco);
    public Task<string> Fired => fired.Task;
    public void Subscribe(Func<string, Task> h) => handlers.Add(h);
    public async Task RaiseAsync(string arg)
    {
        Log.W("raise " + arg + " to " + handlers.Count);
        foreach (var h in handlers.ToArray())
            await h(arg);
        Log.W("handlers done, firing one-shot");
        fired.TrySetResult(arg);
        Log.W("one-shot fired");
    }
}

static class Program
{
    static bool Suspend;

    static async Task MaybeYield(string who)
    {
        if (Suspend)
        {
            await Task.Yield();
            Log.W(who + " yielded");
        }
    }

    // ---- locks
    static async Task<int> CriticalLeaf(SemLock l, string who, int v)
    {
        using (await l.LockAsync(who))
        {
            await MaybeYield(who + " in lock");
            Log.W(who + " working " + v);
            return v * 2;
        }
    }

    static async Task<int> CriticalMiddle(SemLock l, string who, int v)
    {
        Log.W(who + " middle");
        int r = await CriticalLeaf(l, who, v);
        Log.W(who + " middle got " + r);
        return r + 1;
    }

    static async Task<int> CriticalOuter(SemLock l, string who, int v)
    {
        await MaybeYield(who + " outer");
        int r = await CriticalMiddle(l, who, v);
        Log.W(who + " outer got " + r);
        return r;
    }

    static async Task<int> QueueLocked(QueueLock l, string who, Task gate)
    {
        Log.W(who + " start");
        using (await l.LockAsync(who))
        {
            Log.W(who + " in queue lock");
            await gate;
            Log.W(who + " passed gate");
            await MaybeYield(who);
        }
        Log.W(who + " out of queue lock");
        return who.Length;
    }

    static async Task<int> QueueLockedChain(QueueLock l, string who, Task gate)
    {
        int r = await QueueLocked(l, who, gate);
        Log.W(who + " chain done");
        return r;
    }

    // ---- events
    static async Task<string> WaitEvent(AsyncManualResetEvent e, string who)
    {
        Log.W(who + " waits mre");
        await e.WaitAsync();
        Log.W(who + " mre passed");
        return who;
    }

    static async Task<string> WaitEventDeep(AsyncManualResetEvent e, string who, int depth)
    {
        if (depth == 0) return await WaitEvent(e, who);
        await MaybeYield(who + " d" + depth);
        var r = await WaitEventDeep(e, who, depth - 1);
        Log.W(who + " unwinds d" + depth);
        return r + depth;
    }

    static async Task AutoWorker(AsyncAutoResetEvent e, string who, int rounds, AsyncAutoResetEvent next)
    {
        for (int i = 0; i < rounds; i++)
        {
            await e.WaitAsync();
            Log.W(who + " round " + i);
            await MaybeYield(who);
            next.Set();
            Log.W(who + " set next " + i);
        }
    }

    static async Task CountdownWorker(AsyncCountdownEvent c, string who)
    {
        await MaybeYield(who);
        Log.W(who + " signals and waits");
        await c.SignalAndWait();
        Log.W(who + " through countdown");
    }

    static async Task BarrierWorker(AsyncBarrier b, string who, int phases)
    {
        for (int p = 0; p < phases; p++)
        {
            await MaybeYield(who);
            Log.W(who + " arrives phase " + p);
            await b.SignalAndWait(who);
            Log.W(who + " leaves phase " + p);
        }
    }

    static int lazyRuns;
    static async Task<int> LazyFactory()
    {
        lazyRuns++;
        Log.W("lazy factory starts");
        await MaybeYield("lazy");
        Log.W("lazy factory ends");
        return 42;
    }

    static async Task<int> LazyUser(AsyncLazy<int> lazy, string who)
    {
        Log.W(who + " awaits lazy");
        int v = await lazy;
        Log.W(who + " lazy = " + v);
        return v;
    }

    static async Task Reader(AsyncReaderWriterLock rw, string who, TaskCompletionSource gate)
    {
        Log.W(who + " wants read");
        using (await rw.ReaderLockAsync())
        {
            Log.W(who + " reading");
            await gate.Task;
            Log.W(who + " read done");
        }
    }

    static async Task Writer(AsyncReaderWriterLock rw, string who, Task gate)
    {
        Log.W(who + " wants write");
        using (await rw.WriterLockAsync())
        {
            Log.W(who + " writing");
            await gate;
            await MaybeYield(who);
            Log.W(who + " write done");
        }
    }

    static async Task Producer(BoundedQueue<int> q, string who, int from, int n)
    {
        for (int i = from; i < from + n; i++)
        {
            Log.W(who + " puts " + i);
            await q.PutAsync(i);
            Log.W(who + " put " + i);
        }
    }

    static async Task<int> Consumer(BoundedQueue<int> q, string who, int n)
    {
        int sum = 0;
        for (int i = 0; i < n; i++)
        {
            int v = await q.TakeAsync();
            Log.W(who + " took " + v);
            sum += v;
            if (i % 2 == 1) await MaybeYield(who);
        }
        return sum;
    }

    static async Task Handler(string who, string arg, Task gate)
    {
        Log.W(who + " handles " + arg);
        await gate;
        await MaybeYield(who);
        Log.W(who + " handled " + arg);
    }

    static async Task<string> AwaitFired(AsyncEvent ev, string who)
    {
        string s = await ev.Fired;
        Log.W(who + " saw fired " + s);
        return s;
    }

    static async Task Body()
    {
        // SemaphoreSlim lock: three contenders through chains
        {
            var l = new SemLock();
            var a = CriticalOuter(l, "a", 1);
            var b = CriticalOuter(l, "b", 2);
            var c = CriticalMiddle(l, "c", 3);
            Log.W("results " + await a + " " + await b + " " + await c);
            Log.Flush("semaphore lock");
        }
        // queue lock with a gate that the first holder waits on
        {
            var l = new QueueLock();
            var gate = new TaskCompletionSource(Opts.Tco);
            var a = QueueLockedChain(l, "qa", gate.Task);
            var b = QueueLockedChain(l, "qb", gate.Task);
            var c = QueueLocked(l, "qc", gate.Task);
            Log.W("opening gate");
            gate.SetResult();
            Log.W("gate opened");
            Log.W("results " + await a + " " + await b + " " + await c);
            Log.Flush("queue lock");
        }
        // manual reset event with chains of different depth, set, reset, set again
        {
            var e = new AsyncManualResetEvent();
            var w1 = WaitEventDeep(e, "m1", 2);
            var w2 = WaitEvent(e, "m2");
            var w3 = WaitEventDeep(e, "m3", 1);
            for (int i = 0; i < 4; i++) await Task.Yield();
            Log.W("set");
            e.Set();
            Log.W("set returned");
            Log.W("results " + await w1 + " " + await w2 + " " + await w3);
            e.Reset();
            var w4 = WaitEvent(e, "m4");
            Log.W("w4 completed before set: " + w4.IsCompleted);
            e.Set();
            Log.W("second set returned");
            Log.W("w4 " + await w4);
            Log.Flush("manual reset event");
        }
        // auto reset ping-pong between three workers
        {
            var e1 = new AsyncAutoResetEvent();
            var e2 = new AsyncAutoResetEvent();
            var e3 = new AsyncAutoResetEvent();
            var t1 = AutoWorker(e1, "p1", 2, e2);
            var t2 = AutoWorker(e2, "p2", 2, e3);
            var t3 = AutoWorker(e3, "p3", 2, e1);
            Log.W("kick");
            e1.Set();
            Log.W("kick returned");
            await Task.WhenAll(t1, t2, t3);
            Log.Flush("auto reset event");
        }
        // countdown
        {
            var c = new AsyncCountdownEvent(3);
            var ts = new[] { CountdownWorker(c, "c1"), CountdownWorker(c, "c2"), CountdownWorker(c, "c3") };
            await Task.WhenAll(ts);
            Log.Flush("countdown event");
        }
        // barrier
        {
            var b = new AsyncBarrier(3);
            var ts = new[] { BarrierWorker(b, "b1", 2), BarrierWorker(b, "b2", 2), BarrierWorker(b, "b3", 2) };
            await Task.WhenAll(ts);
            Log.Flush("barrier");
        }
        // lazy
        {
            lazyRuns = 0;
            var lazy = new AsyncLazy<int>(LazyFactory);
            var u1 = LazyUser(lazy, "u1");
            var u2 = LazyUser(lazy, "u2");
            var u3 = LazyUser(lazy, "u3");
            Log.W("sum " + (await u1 + await u2 + await u3) + " runs " + lazyRuns);
            Log.Flush("lazy");
        }
        // reader writer lock
        {
            var rw = new AsyncReaderWriterLock();
            var g1 = new TaskCompletionSource(Opts.Tco);
            var g2 = new TaskCompletionSource(Opts.Tco);
            var r1 = Reader(rw, "r1", g1);
            var w1 = Writer(rw, "w1", g2.Task);
            var r2 = Reader(rw, "r2", g1);
            var r3 = Reader(rw, "r3", g1);
            Log.W("release readers gate");
            g1.SetResult();
            Log.W("readers gate returned");
            Log.W("release writer gate");
            g2.SetResult();
            Log.W("writer gate returned");
            await Task.WhenAll(r1, w1, r2, r3);
            Log.Flush("reader writer lock");
        }
        // bounded queue
        {
            var q = new BoundedQueue<int>(2);
            var c1 = Consumer(q, "k1", 4);
            var p1 = Producer(q, "pa", 10, 4);
            var p2 = Producer(q, "pb", 20, 4);
            var c2 = Consumer(q, "k2", 4);
            await Task.WhenAll(p1, p2);
            Log.W("sums " + await c1 + " " + await c2);
            Log.Flush("bounded queue");
        }
        // async event with a one-shot
        {
            var ev = new AsyncEvent();
            var gate = new TaskCompletionSource(Opts.Tco);
            ev.Subscribe(arg => Handler("h1", arg, gate.Task));
            ev.Subscribe(async arg => { Log.W("h2 lambda " + arg); await Handler("h2", arg, Task.CompletedTask); });
            var f1 = AwaitFired(ev, "f1");
            var f2 = AwaitFired(ev, "f2");
            var raise = ev.RaiseAsync("go");
            Log.W("raise returned");
            gate.SetResult();
            Log.W("gate returned");
            await raise;
            Log.W("fired " + await f1 + await f2);
            Log.Flush("async event");
        }
    }

    static async Task Main()
    {
        Log.Loop = new SingleThreadLoop();
        foreach (var asyncCont in new[] { false, true })
            foreach (var suspend in new[] { false, true })
            {
                Opts.AsyncContinuations = asyncCont;
                Suspend = suspend;
                Console.WriteLine($"-- async continuations={asyncCont} suspend={suspend}");
                Log.Loop.RunUntilComplete(Body);
            }
        Log.Loop.Stop();
        await Task.CompletedTask;
    }
}
