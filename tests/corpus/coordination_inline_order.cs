// Inline continuation order with no SynchronizationContext, everything on the main thread: every
// suspension waits on a TaskCompletionSource or a ManualResetValueTaskSourceCore that the scenario
// completes itself, so continuations run inline inside SetResult. Covers ContinueWith
// (ExecuteSynchronously and not, LazyCancellation) registered before, between and after awaits on
// the same TCS and on the Tasks of async methods (chains 1-4 deep); nested SetResult chains (A's
// continuation completes B's TCS, which resumes C, which completes D's ...) and what runs before
// each SetResult returns; a continuation that completes the TCS its own caller awaits next;
// WhenAll/WhenAny over chains; ValueTasks over ManualResetValueTaskSourceCore with
// RunContinuationsAsynchronously false, including a loop that re-awaits the same source.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

sealed class Source : IValueTaskSource<int>
{
    ManualResetValueTaskSourceCore<int> core;
    public string Name;
    public Source(string name) { Name = name; core.RunContinuationsAsynchronously = false; }
    public ValueTask<int> Wait() => new ValueTask<int>(this, core.Version);
    public void Set(int v) { Program.W(Name + " set " + v); core.SetResult(v); Program.W(Name + " set returned " + v); }
    public void Reset() => core.Reset();
    // As pooled sources do: the reader's GetResult frees the source for the next operation.
    public int GetResult(short token) { var r = core.GetResult(token); core.Reset(); Program.W(Name + " GetResult " + r); return r; }
    public ValueTaskSourceStatus GetStatus(short token) => core.GetStatus(token);
    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
    {
        Program.W(Name + " OnCompleted flags=" + flags);
        core.OnCompleted(continuation, state, token, flags);
    }
}

static class Program
{
    static int seq;
    static readonly List<string> log = new();
    public static void W(string s) => log.Add($"{++seq,3} {s}");
    static void Flush(string title)
    {
        Console.WriteLine(title);
        foreach (var l in log) Console.WriteLine("  " + l);
        log.Clear();
        seq = 0;
    }

    static bool Suspend;
    static readonly List<TaskCompletionSource> pre = new();

    // When Suspend is set, a method first waits for a gate of its own, opened by the scenario (one
    // awaiter per Task: a Task runs only its first await continuation inline).
    static async Task Pre(string who)
    {
        if (Suspend)
        {
            var gate = new TaskCompletionSource();
            pre.Add(gate);
            await gate.Task;
            W(who + " past pre");
        }
    }

    static async Task<int> Leaf(string who, Task<int> gate)
    {
        await Pre(who);
        W(who + " leaf awaits");
        int v = await gate;
        W(who + " leaf resumed " + v);
        return v + 1;
    }

    static async Task<int> Mid(string who, Task<int> gate)
    {
        int v = await Leaf(who, gate);
        W(who + " mid resumed " + v);
        return v * 2;
    }

    static async Task<int> Top(string who, Task<int> gate)
    {
        W(who + " top starts");
        int v = await Mid(who, gate);
        W(who + " top resumed " + v);
        return v + 100;
    }

    static async Task<int> Deep(string who, Task<int> gate, int depth)
    {
        if (depth == 0) return await Top(who, gate);
        int v = await Deep(who, gate, depth - 1);
        W(who + " deep" + depth + " resumed " + v);
        return v;
    }

    static Task<int> Cw(string who, Task<int> t, TaskContinuationOptions o) =>
        t.ContinueWith(x => { W(who + " continuewith " + x.Result); return x.Result; }, CancellationToken.None, o, TaskScheduler.Default);

    static void OpenPre()
    {
        for (int i = 0; i < pre.Count; i++)
        {
            W("open pre " + i);
            pre[i].SetResult();
            W("pre opened " + i);
        }
        pre.Clear();
    }

    static void Scenario(string title, Action body)
    {
        body();
        Flush(title);
    }

    // A continuation that completes the next TCS, which resumes the next waiter, and so on.
    static async Task<int> Relay(string who, Task<int> wait, TaskCompletionSource<int> next)
    {
        await Pre(who);
        W(who + " relay waits");
        int v = await wait;
        W(who + " relay got " + v + ", completing next");
        next.SetResult(v + 1);
        W(who + " relay next returned");
        return v;
    }

    static async Task<int> RelayThenAwait(string who, Task<int> wait, TaskCompletionSource<int> next, Task<int> after)
    {
        int v = await Relay(who, wait, next);
        W(who + " awaits after");
        int w = await after;
        W(who + " after " + w);
        return v + w;
    }

    static async Task<int> SelfFeeding(string who, Task<int> first, TaskCompletionSource<int> second)
    {
        int a = await first;
        W(who + " got first " + a + ", completing second itself");
        second.SetResult(a * 10);
        int b = await second.Task;
        W(who + " got second " + b + " without suspending");
        return a + b;
    }

    static async Task<int> ReadLoop(Source s, int count)
    {
        int sum = 0;
        for (int i = 0; i < count; i++)
        {
            W("loop awaits " + i);
            int v = await s.Wait();
            W("loop got " + v);
            sum += v;
        }
        return sum;
    }

    static async Task<int> ReadLoopCaller(Source s, int count)
    {
        await Pre("looper");
        int r = await ReadLoop(s, count);
        W("loop caller got " + r);
        return r;
    }

    static async Task<int> ReadOnce(Source s, string who)
    {
        await Pre(who);
        W(who + " awaits source");
        int v = await s.Wait();
        W(who + " source gave " + v);
        return v;
    }

    static void Body()
    {
        // A Task runs only its first await continuation inline (later ones go to the thread pool),
        // so each TCS here has one awaiting chain and any number of ExecuteSynchronously ContinueWiths.
        Scenario("continuewith around awaits on a tcs", () =>
        {
            var tcs = new TaskCompletionSource<int>();
            var c0 = Cw("c0", tcs.Task, TaskContinuationOptions.ExecuteSynchronously);
            var c1 = Cw("c1", tcs.Task, TaskContinuationOptions.ExecuteSynchronously);
            var d = Deep("d", tcs.Task, 2);
            var c2 = Cw("c2", tcs.Task, TaskContinuationOptions.ExecuteSynchronously | TaskContinuationOptions.LazyCancellation);
            OpenPre();
            var c3 = Cw("c3", tcs.Task, TaskContinuationOptions.ExecuteSynchronously);
            W("set 1");
            tcs.SetResult(1);
            W("set 1 returned");
            W("results " + d.Result + " " + c0.Result + c1.Result + c2.Result + c3.Result);
        });

        Scenario("continuewith on the tasks of chains", () =>
        {
            var tb = new TaskCompletionSource<int>();
            var td = new TaskCompletionSource<int>();
            var b = Top("b", tb.Task);
            var cb = Cw("cb", b, TaskContinuationOptions.ExecuteSynchronously);
            var d = Deep("d", td.Task, 1);
            var cd = Cw("cd", d, TaskContinuationOptions.ExecuteSynchronously);
            async Task<int> Watcher(string who, Task<int> t)
            {
                W(who + " watches");
                int v = await t;
                W(who + " saw " + v);
                return v;
            }
            var wb = Watcher("wb", b);
            var cb2 = Cw("cb2", b, TaskContinuationOptions.ExecuteSynchronously);
            var wd = Watcher("wd", d);
            var cd2 = Cw("cd2", wd, TaskContinuationOptions.ExecuteSynchronously);
            var cbtb = Cw("cbtb", tb.Task, TaskContinuationOptions.ExecuteSynchronously);
            OpenPre();
            W("set b");
            tb.SetResult(2);
            W("set b returned");
            W("set d");
            td.SetResult(3);
            W("set d returned");
            W("results " + cb.Result + " " + cd.Result + " " + wb.Result + " " + cb2.Result + " " + wd.Result + " " + cd2.Result + " " + cbtb.Result);
        });

        Scenario("nested setresult relay", () =>
        {
            var t0 = new TaskCompletionSource<int>();
            var t1 = new TaskCompletionSource<int>();
            var t2 = new TaskCompletionSource<int>();
            var t3 = new TaskCompletionSource<int>();
            var t4 = new TaskCompletionSource<int>();
            var r1 = Relay("r1", t0.Task, t1);
            var x3 = Deep("x3", t4.Task, 1);
            var r2 = RelayThenAwait("r2", t1.Task, t2, x3);
            var cw1 = Cw("cw1", t1.Task, TaskContinuationOptions.ExecuteSynchronously);
            var r3 = Relay("r3", t2.Task, t3);
            var r4 = Relay("r4", t3.Task, t4);
            var cw2 = Cw("cw2", t2.Task, TaskContinuationOptions.ExecuteSynchronously);
            OpenPre();
            W("set t0");
            t0.SetResult(10);
            W("set t0 returned");
            W("results " + r1.Result + " " + r2.Result + " " + r3.Result + " " + r4.Result + " " + x3.Result + " " + cw1.Result + " " + cw2.Result);
        });

        Scenario("continuation feeds itself", () =>
        {
            var first = new TaskCompletionSource<int>();
            var second = new TaskCompletionSource<int>();
            var s = SelfFeeding("s", first.Task, second);
            var other = Top("o", second.Task);
            OpenPre();
            first.SetResult(3);
            W("first set returned");
            W("results " + s.Result + " " + other.Result);
        });

        Scenario("whenall and whenany over chains", () =>
        {
            var t1 = new TaskCompletionSource<int>();
            var t2 = new TaskCompletionSource<int>();
            var a = Top("a", t1.Task);
            var b = Deep("b", t2.Task, 1);
            var all = Task.WhenAll(a, b);
            var any = Task.WhenAny(a, b);
            async Task<int> Waiter()
            {
                var first = await Task.WhenAny(b, a);
                W("whenany waiter: first is " + (first == a ? "a" : "b"));
                var both = await Task.WhenAll(a, b);
                W("whenall waiter " + both[0] + " " + both[1]);
                return both[0] + both[1];
            }
            var w = Waiter();
            OpenPre();
            W("set t2");
            t2.SetResult(5);
            W("set t2 returned; any done " + any.IsCompleted);
            W("set t1");
            t1.SetResult(6);
            W("set t1 returned; all done " + all.IsCompleted);
            W("result " + w.Result);
        });

        Scenario("valuetask source loop", () =>
        {
            var s = new Source("src");
            var loop = ReadLoopCaller(s, 3);
            OpenPre();
            for (int i = 1; i <= 3; i++)
            {
                s.Set(i * 7);
            }
            W("loop result " + loop.Result);
        });

        Scenario("valuetask source single waiters in sequence", () =>
        {
            var s = new Source("one");
            var a = ReadOnce(s, "va");
            var tcs = new TaskCompletionSource<int>();
            var b = Top("vb", tcs.Task);
            OpenPre();
            s.Set(4);
            tcs.SetResult(8);
            W("results " + a.Result + " " + b.Result);
        });
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Body();
        }
        await Task.CompletedTask;
    }
}
