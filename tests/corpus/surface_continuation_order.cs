// The order in which everything attached to one task of a rewritten method runs when it completes,
// on a single-threaded SynchronizationContext where the completion happens: rewritten methods
// awaiting it (directly, through a callee, with ConfigureAwait(false)), ContinueWith with and without
// ExecuteSynchronously (asynchronous ones are fired first by the Task), GetAwaiter().OnCompleted and
// ConfigureAwait(false).UnsafeOnCompleted callbacks, a continuation on the loop's scheduler; and the
// Status the task shows from inside its own method (it reads its task from a field), from inside
// each continuation, and to a continuation the method itself registered on its own task.
// Also a TaskCompletionSource with RunContinuationsAsynchronously awaited by several rewritten methods.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static readonly List<string> Log = new();
    static Task? Self;

    static readonly List<string> Off = new();
    static void L(string s) => Log.Add(s);
    // What runs on the thread pool (ConfigureAwait(false) continuations completed on the loop are queued there), kept apart: its order against the loop is a race.
    static void O(string s) { lock (Off) Off.Add(s); }

    static async Task<int> Work(Task gate)
    {
        L("work start");
        await gate;
        L($"work resumed, own task {Self?.Status}");
        Self?.ContinueWith(t => L($"self-registered cw sees {t.Status}"), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        if (Suspend) { await Task.Yield(); L($"work after yield, own task {Self?.Status}"); }
        L("work returns");
        return 42;
    }

    static async Task Waiter(string name, Task<int> t)
    {
        L($"{name} awaits ({t.Status})");
        var r = await t;
        L($"{name} resumed {r} ({t.Status})");
    }

    static async Task WaiterFree(string name, Task<int> t)
    {
        L($"{name} awaits CA(false)");
        var r = await t.ConfigureAwait(false);
        O($"{name} resumed {r} ctx {(SynchronizationContext.Current is SingleThreadLoop ? "loop" : "none")}");
    }

    static async Task<int> Deeper(string name, Task<int> t)
    {
        var r = await t;
        L($"{name} deeper resumed");
        return r;
    }

    static async Task Deep(string name, Task<int> t)
    {
        L($"{name} awaits via callee");
        var r = await Deeper(name, t);
        L($"{name} resumed {r}");
    }

    static async Task Scenario()
    {
        var gate = new TaskCompletionSource();
        var t = Work(gate.Task);
        Self = t;
        var loopScheduler = TaskScheduler.FromCurrentSynchronizationContext();
        var cafDone = new TaskCompletionSource();
        var waiters = new List<Task>
        {
            Waiter("w1", t),
        };
        _ = t.ContinueWith(x => L($"cw-sync {x.Status}"), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        t.GetAwaiter().OnCompleted(() => L($"OnCompleted ({t.Status})"));
        waiters.Add(Deep("d1", t));
        _ = t.ContinueWith(x => L("cw-loop (queued to the loop)"), loopScheduler);
        t.ConfigureAwait(false).GetAwaiter().UnsafeOnCompleted(() => { O("CA(false).UnsafeOnCompleted"); cafDone.SetResult(); });
        waiters.Add(WaiterFree("w2", t));
        waiters.Add(Waiter("w3", t));
        _ = t.ContinueWith(x => L("cw-sync-2"), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        L("set gate");
        gate.SetResult();
        L("after set gate");
        await Task.WhenAll(waiters);
        await cafDone.Task;
        await Task.Yield();
        await Task.Yield();
        L("done");
    }

    static async Task Shared(string name, Task gate)
    {
        L($"{name} waits");
        await gate;
        L($"{name} resumed on loop {SynchronizationContext.Current is SingleThreadLoop}");
    }

    static async Task RcaScenario()
    {
        var tcs = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var all = new List<Task> { Shared("s1", tcs.Task), Shared("s2", tcs.Task) };
        _ = tcs.Task.ContinueWith(_ => L("rca cw-sync"), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.FromCurrentSynchronizationContext());
        all.Add(Shared("s3", tcs.Task));
        L("rca set");
        tcs.SetResult();
        L("rca after set");
        await Task.WhenAll(all);
        await Task.Yield();
        L("rca done");
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var loop = new SingleThreadLoop();
            loop.RunUntilComplete(Scenario);
            loop.RunUntilComplete(RcaScenario);
            loop.Stop();
            foreach (var l in Log) Console.WriteLine("  " + l);
            Log.Clear();
            Off.Sort(StringComparer.Ordinal);
            Console.WriteLine("  off the loop: " + string.Join(", ", Off));
            Off.Clear();
            Self = null;
        }
    }
}
