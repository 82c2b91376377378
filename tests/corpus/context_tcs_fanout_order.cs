// The order in which continuations run when one TaskCompletionSource completes and several async
// methods (directly, or through chains of awaiting async methods) await it: every step is logged
// with a sequence number. With plain TCS the continuations run inline inside SetResult, depth first
// (a chain finishes before the next waiter starts); with RunContinuationsAsynchronously they are
// posted to the loop in registration order and SetResult returns first. A continuation that
// completes another gate re-enters; a waiter registered during the run sees a completed gate.
// Everything runs on one SingleThreadLoop, so the order is deterministic.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static SingleThreadLoop Loop = null!;
    static int seq;
    static readonly List<string> log = new();

    static void Log(string s) => log.Add($"{++seq,2} {s}{(Loop.IsCurrent ? "" : " [off loop]")}");

    static void Flush(string title)
    {
        Console.WriteLine(title);
        foreach (var line in log) Console.WriteLine("  " + line);
        log.Clear();
        seq = 0;
    }

    static async Task Pre(string who)
    {
        if (Suspend)
        {
            await Task.Yield();
            Log(who + " pre-yield done");
        }
    }

    static async Task<int> Leaf(string who, Task<int> gate)
    {
        Log(who + " leaf awaits");
        int v = await gate;
        Log(who + " leaf resumed " + v);
        return v + 1;
    }

    static async Task<int> Middle(string who, Task<int> gate)
    {
        Log(who + " middle calls leaf");
        int v = await Leaf(who, gate);
        Log(who + " middle resumed " + v);
        return v * 10;
    }

    static async Task<int> Outer(string who, Task<int> gate)
    {
        await Pre(who);
        Log(who + " outer calls middle");
        int v = await Middle(who, gate);
        Log(who + " outer resumed " + v);
        return v + 5;
    }

    static async Task<int> Direct(string who, Task<int> gate)
    {
        await Pre(who);
        Log(who + " direct awaits");
        int v = await gate;
        Log(who + " direct resumed " + v);
        return v;
    }

    static async Task<int> ThenCompletes(string who, Task<int> gate, TaskCompletionSource<int> next, int value)
    {
        Log(who + " awaits");
        int v = await gate;
        Log(who + " resumed " + v + ", completing next");
        next.SetResult(value);
        Log(who + " next completed");
        return v;
    }

    static async Task<int> AddsWaiter(string who, Task<int> gate, List<Task<int>> more)
    {
        Log(who + " awaits");
        int v = await gate;
        Log(who + " resumed, starts a late waiter");
        more.Add(Direct(who + "-late", gate));
        Log(who + " late waiter started");
        return v;
    }

    static async Task Scenario(string title, TaskCreationOptions options, Func<TaskCompletionSource<int>, Task> body)
    {
        var tcs = new TaskCompletionSource<int>(options);
        await body(tcs);
        Flush(title);
    }

    static async Task Complete(TaskCompletionSource<int> tcs, int value)
    {
        // let every Pre yield finish and every waiter register
        for (int i = 0; i < 4; i++) await Task.Yield();
        Log("SetResult(" + value + ") calling");
        tcs.SetResult(value);
        Log("SetResult returned");
    }

    static async Task Body()
    {
        foreach (var options in new[] { TaskCreationOptions.None, TaskCreationOptions.RunContinuationsAsynchronously })
        {
            string tag = options == TaskCreationOptions.None ? "inline" : "async";

            await Scenario($"[{tag}] three direct waiters", options, async tcs =>
            {
                var a = Direct("a", tcs.Task);
                var b = Direct("b", tcs.Task);
                var c = Direct("c", tcs.Task);
                await Complete(tcs, 1);
                Log("sum " + (await a + await b + await c));
            });

            await Scenario($"[{tag}] chain then direct then chain", options, async tcs =>
            {
                var x = Outer("x", tcs.Task);
                var d = Direct("d", tcs.Task);
                var y = Outer("y", tcs.Task);
                await Complete(tcs, 2);
                Log("results " + await x + " " + await d + " " + await y);
            });

            await Scenario($"[{tag}] waiters on a chain's task", options, async tcs =>
            {
                var inner = Middle("m", tcs.Task);
                async Task<int> OnInner(string who)
                {
                    Log(who + " awaits inner");
                    int v = await inner;
                    Log(who + " got inner " + v);
                    return v;
                }
                var p = OnInner("p");
                var q = OnInner("q");
                var r = Direct("r", tcs.Task);
                await Complete(tcs, 3);
                Log("results " + await p + " " + await q + " " + await r);
            });

            await Scenario($"[{tag}] continuation completes a second gate", options, async tcs =>
            {
                var second = new TaskCompletionSource<int>(options);
                var s1 = ThenCompletes("s1", tcs.Task, second, 40);
                var s2 = Direct("s2", second.Task);
                var s3 = Direct("s3", tcs.Task);
                var s4 = Outer("s4", second.Task);
                await Complete(tcs, 4);
                Log("results " + await s1 + " " + await s2 + " " + await s3 + " " + await s4);
            });

            await Scenario($"[{tag}] continuation adds a late waiter", options, async tcs =>
            {
                var more = new List<Task<int>>();
                var l1 = AddsWaiter("l1", tcs.Task, more);
                var l2 = Direct("l2", tcs.Task);
                await Complete(tcs, 5);
                int sum = await l1 + await l2;
                foreach (var t in more) sum += await t;
                Log("sum " + sum);
            });

            await Scenario($"[{tag}] ContinueWith mixed with awaits", options, async tcs =>
            {
                var e1 = Direct("e1", tcs.Task);
                var cw = tcs.Task.ContinueWith(t => Log("continuewith sync " + t.Result), CancellationToken.None,
                    TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.FromCurrentSynchronizationContext());
                var e2 = Outer("e2", tcs.Task);
                var cw2 = tcs.Task.ContinueWith(t => Log("continuewith queued " + t.Result), CancellationToken.None,
                    TaskContinuationOptions.None, TaskScheduler.FromCurrentSynchronizationContext());
                var e3 = Direct("e3", tcs.Task);
                await Complete(tcs, 6);
                await cw; await cw2;
                Log("results " + await e1 + " " + await e2 + " " + await e3);
            });
        }
    }

    static async Task Main()
    {
        Loop = new SingleThreadLoop();
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Loop.RunUntilComplete(Body);
        }
        Loop.Stop();
        await Task.CompletedTask;
    }
}
