// Continuations of rewritten methods run synchronously on the thread that completes what they await
// (a single awaiter), so when they block, the completing thread has not gone on yet: a wait for
// something it does after SetResult times out under classic async. Several awaiters of one task:
// only the first runs inline. Every scenario records lines and prints them after it ends.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static Thread? Completer;
    static readonly List<string> Log = new();
    static void L(string s) { lock (Log) Log.Add(s); }
    static bool Same => Thread.CurrentThread == Completer;

    static async Task Leaf(Task gate)
    {
        if (Suspend) await gate;
        L($"leaf resumed same={Same}");
    }

    static async Task<int> Mid(Task gate, ManualResetEventSlim after)
    {
        await Leaf(gate);
        bool ok = after.Wait(100);
        L($"mid resumed same={Same} after-set-seen={ok}");
        return ok ? 1 : 0;
    }

    static async Task<int> Top(Task gate, ManualResetEventSlim after)
    {
        int r = await Mid(gate, after);
        L($"top resumed same={Same}");
        return r + 10;
    }

    static readonly object Sync = new();

    static async Task LockReentry(Task gate)
    {
        await Leaf(gate);
        // Classic: runs inline on the completer, which holds Sync, so TryEnter succeeds (reentrant).
        bool got = Monitor.TryEnter(Sync, 100);
        L($"lock reentry got={got} same={Same}");
        if (got) Monitor.Exit(Sync);
    }

    static async Task BlocksOnSibling(Task gate, Task sibling)
    {
        await Leaf(gate);
        bool ok = sibling.Wait(100);
        L($"blocks on sibling ok={ok} same={Same}");
    }

    static async Task SiblingOf(Task gate2)
    {
        await gate2;
        L($"sibling resumed same={Same}");
    }

    static void Complete(Action a)
    {
        var t = new Thread(() => a()) { Name = "completer" };
        Completer = t;
        t.Start();
        t.Join();
    }

    static void Flush(string title)
    {
        Console.WriteLine(title);
        lock (Log) { foreach (var s in Log) Console.WriteLine("  " + s); Log.Clear(); }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");

            var tcs = new TaskCompletionSource();
            var after = new ManualResetEventSlim();
            Completer = Thread.CurrentThread;
            var top = Top(tcs.Task, after);
            var cw = top.ContinueWith(t => L($"cw sync same={Same} status={t.Status}"), TaskContinuationOptions.ExecuteSynchronously);
            Complete(() => { tcs.TrySetResult(); L("SetResult returned"); after.Set(); });
            Console.WriteLine($" top={await top}");
            await cw;
            Flush(" chain:");

            tcs = new TaskCompletionSource();
            Completer = Thread.CurrentThread;
            var lr = LockReentry(tcs.Task);
            Complete(() => { lock (Sync) { tcs.TrySetResult(); L("SetResult under lock returned"); } });
            await lr;
            Flush(" lock:");

            tcs = new TaskCompletionSource();
            var tcs2 = new TaskCompletionSource();
            Completer = Thread.CurrentThread;
            var sib = SiblingOf(tcs2.Task);
            var bos = BlocksOnSibling(tcs.Task, sib);
            Complete(() => { tcs.TrySetResult(); tcs2.TrySetResult(); L("both set"); });
            await bos; await sib;
            Flush(" sibling:");

            // WaitAny / WhenAny continuation inline
            tcs = new TaskCompletionSource();
            after = new ManualResetEventSlim();
            Completer = Thread.CurrentThread;
            var m1 = Mid(tcs.Task, after);
            var any = Task.WhenAny(m1, new TaskCompletionSource().Task);
            var anyCont = AwaitAny(any);
            Complete(() => { tcs.TrySetResult(); L("SetResult returned"); after.Set(); });
            await anyCont;
            Flush(" whenany:");

            // WhenAll of two chains completed by one SetResult
            tcs = new TaskCompletionSource();
            after = new ManualResetEventSlim();
            Completer = Thread.CurrentThread;
            var all = AwaitAll(Top(tcs.Task, after), Task.CompletedTask);
            Complete(() => { tcs.TrySetResult(); L("SetResult returned"); after.Set(); });
            await all;
            Flush(" whenall:");
        }
    }

    static async Task AwaitAny(Task<Task> any)
    {
        var w = await any;
        L($"whenany resumed same={Same} winner-completed={w.IsCompleted}");
    }

    static async Task AwaitAll(Task<int> a, Task b)
    {
        await Task.WhenAll(a, b);
        L($"whenall resumed same={Same} a={a.Result}");
    }
}
