// Coordination primitives on one SingleThreadLoop, on their failure paths and over ValueTask
// sources: a waiter queue whose TCSs are faulted, canceled (through a CancellationToken registered
// per waiter, so Cancel() resumes chains inline, last registration first) or completed, awaited by
// chains with finally blocks, catch filters and handlers at different depths; an AsyncLazy whose
// first factory fails and is retried; a single-reader channel built on
// ManualResetValueTaskSourceCore (RunContinuationsAsynchronously false and true) read in a loop by
// a chain, so the reader re-suspends at the same ValueTask await; SemaphoreSlim.WaitAsync canceled
// while queued. Every step is logged in order.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

static class L
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

sealed class WaiterQueue(TaskCreationOptions options)
{
    readonly List<(string Who, TaskCompletionSource<int> Tcs, CancellationTokenRegistration Reg)> waiters = new();

    public Task<int> Enqueue(string who, CancellationToken ct)
    {
        var tcs = new TaskCompletionSource<int>(options);
        var reg = ct.Register(() =>
        {
            L.W("cancel callback for " + who);
            tcs.TrySetCanceled(ct);
            L.W("cancel callback for " + who + " returns");
        });
        waiters.Add((who, tcs, reg));
        return tcs.Task;
    }

    public void ReleaseAll(Func<string, int, Exception?> outcome)
    {
        var all = waiters.ToArray();
        waiters.Clear();
        for (int i = 0; i < all.Length; i++)
        {
            var (who, tcs, reg) = all[i];
            reg.Dispose();
            var ex = outcome(who, i);
            L.W("releasing " + who + (ex is null ? "" : " with " + ex.GetType().Name));
            bool done = ex is null ? tcs.TrySetResult(i) : tcs.TrySetException(ex);
            L.W("released " + who + " " + done);
        }
    }
}

sealed class Channel1 : IValueTaskSource<int>
{
    ManualResetValueTaskSourceCore<int> core;
    readonly Queue<int> buffered = new();
    bool waiting;
    public Channel1(bool runAsync) { core.RunContinuationsAsynchronously = runAsync; }

    public ValueTask<int> ReadAsync()
    {
        if (buffered.Count > 0) return new ValueTask<int>(buffered.Dequeue());
        waiting = true;
        return new ValueTask<int>(this, core.Version);
    }

    public void Write(int v)
    {
        L.W("write " + v + (waiting ? " to waiting reader" : " buffered"));
        if (waiting)
        {
            waiting = false;
            core.SetResult(v);
        }
        else buffered.Enqueue(v);
        L.W("write " + v + " returned");
    }

    public void Fail(Exception e)
    {
        L.W("fail " + e.Message);
        waiting = false;
        core.SetException(e);
        L.W("fail returned");
    }

    public int GetResult(short token)
    {
        try { return core.GetResult(token); }
        finally { core.Reset(); }
    }
    public ValueTaskSourceStatus GetStatus(short token) => core.GetStatus(token);
    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        core.OnCompleted(continuation, state, token, flags);
}

sealed class AsyncLazy<T>
{
    readonly Func<Task<T>> factory;
    Task<T>? task;
    public AsyncLazy(Func<Task<T>> factory) => this.factory = factory;
    // retries after a failure, as many caches do
    public Task<T> GetAsync()
    {
        if (task is null || task.IsFaulted) task = factory();
        return task;
    }
}

static class Program
{
    static bool Suspend;

    static async Task Hop(string who)
    {
        if (Suspend)
        {
            await Task.Yield();
            L.W(who + " hopped");
        }
    }

    static async Task<int> WaitLeaf(WaiterQueue q, string who, CancellationToken ct)
    {
        try
        {
            L.W(who + " leaf waits");
            return await q.Enqueue(who, ct);
        }
        finally
        {
            L.W(who + " leaf finally");
        }
    }

    static async Task<int> WaitNoHandler(WaiterQueue q, string who, CancellationToken ct)
    {
        int v = await WaitLeaf(q, who, ct);
        L.W(who + " no-handler frame got " + v);
        return v;
    }

    static async Task<int> WaitFiltered(WaiterQueue q, string who, CancellationToken ct)
    {
        await Hop(who);
        try
        {
            return await WaitNoHandler(q, who, ct) + 100;
        }
        catch (Exception e) when (Filter(who, e))
        {
            L.W(who + " caught " + e.GetType().Name);
            await Hop(who + " in catch");
            return -1;
        }
    }

    static bool Filter(string who, Exception e)
    {
        L.W(who + " filter sees " + e.GetType().Name);
        return e is not InvalidOperationException;
    }

    static async Task<string> Outer(WaiterQueue q, string who, CancellationToken ct)
    {
        try
        {
            int v = await WaitFiltered(q, who, ct);
            L.W(who + " outer got " + v);
            return who + "=" + v;
        }
        catch (InvalidOperationException e)
        {
            L.W(who + " outer caught " + e.Message);
            return who + "!";
        }
        finally
        {
            L.W(who + " outer finally");
        }
    }

    static int factoryRuns;
    static async Task<string> Factory()
    {
        int run = ++factoryRuns;
        L.W("factory run " + run);
        await Hop("factory");
        if (run == 1) throw new TimeoutException("first try fails");
        return "value" + run;
    }

    static async Task<string> UseLazy(AsyncLazy<string> lazy, string who)
    {
        try
        {
            var v = await lazy.GetAsync();
            L.W(who + " lazy " + v);
            return v;
        }
        catch (TimeoutException e)
        {
            L.W(who + " lazy failed: " + e.Message);
            return "none";
        }
    }

    static async Task<int> ReadAll(Channel1 ch, string who)
    {
        int sum = 0;
        try
        {
            while (true)
            {
                int v = await ch.ReadAsync();
                L.W(who + " read " + v);
                if (v < 0) break;
                sum += v;
            }
        }
        catch (Exception e)
        {
            L.W(who + " reader failed: " + e.Message);
            sum = -sum;
        }
        return sum;
    }

    static async Task<int> ReadAllChain(Channel1 ch, string who)
    {
        await Hop(who);
        int r = await ReadAll(ch, who);
        L.W(who + " chain result " + r);
        return r;
    }

    static async Task<string> SemWaiter(SemaphoreSlim sem, string who, CancellationToken ct, Task gate)
    {
        try
        {
            L.W(who + " sem wait");
            await sem.WaitAsync(ct);
            try
            {
                L.W(who + " sem entered");
                await gate;
                await Hop(who);
                return who + " ok";
            }
            finally
            {
                L.W(who + " sem release");
                sem.Release();
            }
        }
        catch (OperationCanceledException)
        {
            L.W(who + " sem canceled");
            return who + " canceled";
        }
    }

    static async Task Body()
    {
        foreach (var options in new[] { TaskCreationOptions.None, TaskCreationOptions.RunContinuationsAsynchronously })
        {
            string tag = options == TaskCreationOptions.None ? "inline" : "async";
            {
                var q = new WaiterQueue(options);
                using var cts = new CancellationTokenSource();
                var a = Outer(q, "a", cts.Token);
                var b = Outer(q, "b", cts.Token);
                var c = WaitFiltered(q, "c", CancellationToken.None);
                var d = Outer(q, "d", CancellationToken.None);
                for (int i = 0; i < 3; i++) await Task.Yield();
                L.W("cancel");
                cts.Cancel();
                L.W("cancel returned");
                for (int i = 0; i < 3; i++) await Task.Yield();
                q.ReleaseAll((who, i) => who == "d" ? new InvalidOperationException("no " + who) : who == "c" ? new FormatException("bad " + who) : null);
                L.W("results " + await a + " " + await b + " " + await c + " " + await d);
                L.Flush($"[{tag}] waiter queue: cancel, fault, filter");
            }
            {
                var q = new WaiterQueue(options);
                var xs = new List<Task<string>>();
                for (int i = 0; i < 3; i++) xs.Add(Outer(q, "x" + i, CancellationToken.None));
                for (int i = 0; i < 3; i++) await Task.Yield();
                q.ReleaseAll((who, i) => i == 1 ? new InvalidOperationException("middle " + who) : null);
                L.W("results " + string.Join(",", await Task.WhenAll(xs)));
                L.Flush($"[{tag}] waiter queue: mixed outcomes");
            }
        }

        {
            factoryRuns = 0;
            var lazy = new AsyncLazy<string>(Factory);
            var u1 = UseLazy(lazy, "u1");
            var u2 = UseLazy(lazy, "u2");
            L.W("first round " + await u1 + " " + await u2);
            var u3 = UseLazy(lazy, "u3");
            var u4 = UseLazy(lazy, "u4");
            L.W("second round " + await u3 + " " + await u4 + " runs " + factoryRuns);
            L.Flush("lazy retry");
        }

        foreach (var runAsync in new[] { false, true })
        {
            var ch = new Channel1(runAsync);
            var r = ReadAllChain(ch, "rd");
            for (int i = 0; i < 2; i++) await Task.Yield();
            ch.Write(1);
            ch.Write(2);
            await Task.Yield();
            ch.Write(3);
            for (int i = 0; i < 2; i++) await Task.Yield();
            ch.Write(-1);
            L.W("reader result " + await r);
            var ch2 = new Channel1(runAsync);
            var r2 = ReadAllChain(ch2, "rf");
            for (int i = 0; i < 2; i++) await Task.Yield();
            ch2.Write(5);
            await Task.Yield();
            ch2.Fail(new InvalidOperationException("channel broke"));
            L.W("failing reader result " + await r2);
            L.Flush($"channel runAsync={runAsync}");
        }

        {
            var sem = new SemaphoreSlim(1, 1);
            using var cts = new CancellationTokenSource();
            var gate = new TaskCompletionSource();
            var s1 = SemWaiter(sem, "s1", CancellationToken.None, gate.Task);
            var s2 = SemWaiter(sem, "s2", cts.Token, Task.CompletedTask);
            var s3 = SemWaiter(sem, "s3", CancellationToken.None, Task.CompletedTask);
            L.W("cancel s2");
            cts.Cancel();
            L.W("cancel s2 returned");
            // SemaphoreSlim handles the cancellation on the thread pool: wait for s2 before going on
            L.W("s2: " + await s2);
            gate.SetResult();
            L.W("gate opened");
            L.W("results " + await s1 + ", " + await s3);
            L.Flush("semaphore cancel");
        }
    }

    static async Task Main()
    {
        L.Loop = new SingleThreadLoop();
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            L.Loop.RunUntilComplete(Body);
        }
        L.Loop.Stop();
        await Task.CompletedTask;
    }
}
