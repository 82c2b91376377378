// Task.CurrentId and TaskScheduler.Current as rewritten methods see them: called with no Task running,
// from inside Task.Run's delegate (the Task.Run task is current until the first await), started with
// Task.Factory.StartNew on a custom scheduler (each resumption runs as a Task of its own on that
// scheduler), after ConfigureAwait(false) in a callee, after awaiting a callee that resumed on the
// scheduler, and resumed inline by a TaskCompletionSource completed from inside another Task.
// Ids are printed as how they relate ("none", "outer", "same as before", "new"), never as numbers.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class OneThreadScheduler : TaskScheduler
{
    private readonly BlockingCollection<Task> queue = new();
    private readonly Thread thread;
    public int Queued, Inlined;

    public OneThreadScheduler()
    {
        thread = new Thread(() => { foreach (var t in queue.GetConsumingEnumerable()) TryExecuteTask(t); }) { IsBackground = true };
        thread.Start();
    }

    protected override void QueueTask(Task task) { Interlocked.Increment(ref Queued); queue.Add(task); }

    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued)
    {
        if (Thread.CurrentThread != thread) return false;
        Interlocked.Increment(ref Inlined);
        return TryExecuteTask(task);
    }

    protected override IEnumerable<Task> GetScheduledTasks() => queue.ToArray();
    public bool OnIt => Thread.CurrentThread == thread;
}

static class Program
{
    static bool Suspend;
    static OneThreadScheduler Sched = null!;
    static readonly List<string> Log = new();

    static string Id(int? outer, ref int? previous)
    {
        var id = Task.CurrentId;
        string s = id is null ? "none" : id == outer ? "outer" : id == previous ? "same" : "new";
        previous = id;
        return s;
    }

    static string SchedName() => TaskScheduler.Current == Sched ? "custom" : TaskScheduler.Current == TaskScheduler.Default ? "default" : "other";

    static void Note(string what, int? outer, ref int? previous)
    {
        var s = $"{what}: id {Id(outer, ref previous)} sched {SchedName()} onSched {Sched.OnIt}";
        lock (Log) Log.Add(s);
    }

    static async Task Callee(int? outer)
    {
        int? prev = null;
        Note("  callee start", outer, ref prev);
        if (Suspend) await Task.Yield();
        Note("  callee after yield", outer, ref prev);
    }

    static async Task CalleeFreeing(int? outer)
    {
        int? prev = null;
        Note("  freeing start", outer, ref prev);
        if (Suspend) await Task.Delay(1).ConfigureAwait(false);
        Note("  freeing after CA(false)", outer, ref prev);
    }

    static async Task<int> Body(string name, int? outer)
    {
        int? prev = null;
        Note($"{name} start", outer, ref prev);
        if (Suspend) await Task.Yield();
        Note($"{name} after yield", outer, ref prev);
        await Callee(outer);
        Note($"{name} after callee", outer, ref prev);
        await CalleeFreeing(outer).ConfigureAwait(false);
        Note($"{name} after CA(false) callee", outer, ref prev);
        await Callee(outer);
        Note($"{name} after callee again", outer, ref prev);
        return 1;
    }

    static async Task<int> ResumedByTcs(Task gate, int? outer)
    {
        int? prev = null;
        Note("tcs start", outer, ref prev);
        await gate;
        Note("tcs resumed", outer, ref prev);
        return 2;
    }

    static void Flush(string title)
    {
        Console.WriteLine(title);
        lock (Log) { foreach (var l in Log) Console.WriteLine("  " + l); Log.Clear(); }
    }

    static async Task Main()
    {
        Sched = new OneThreadScheduler();
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");

            await Body("main", null);
            Flush("no task running:");

            int? runId = null;
            await Task.Run(() => { runId = Task.CurrentId; return Body("run", Task.CurrentId); });
            Flush("inside Task.Run:");

            var started = Task.Factory.StartNew(() => Body("sched", Task.CurrentId), CancellationToken.None, TaskCreationOptions.None, Sched);
            var inner = await started;
            await inner;
            Flush("StartNew on custom scheduler:");

            var unwrapped = Task.Factory.StartNew(async () => { int? p = null; Note("lambda start", null, ref p); await Body("lambda", null); Note("lambda end", null, ref p); }, CancellationToken.None, TaskCreationOptions.DenyChildAttach, Sched).Unwrap();
            await unwrapped;
            Flush("async lambda started on custom scheduler, Unwrap:");

            var tcs = new TaskCompletionSource();
            var waiting = ResumedByTcs(tcs.Task, null);
            int? completer = null;
            await Task.Run(() => { completer = Task.CurrentId; tcs.SetResult(); });
            await waiting;
            lock (Log) Log.Add($"completer ran continuation inline: {waiting.IsCompleted}");
            Flush("resumed by SetResult inside Task.Run:");

            // Tasks of rewritten methods are promises: no Task is current from their point of view, and they are not started tasks.
            var t = Body("probe", null);
            Console.WriteLine($"probe task: AsyncState null {t.AsyncState is null} options {t.CreationOptions} status now {t.Status}");
            await t;
            Flush("probe:");
        }
        Console.WriteLine($"scheduler used: queued>0 {Sched.Queued > 0} inlined>0 {Sched.Inlined > 0}");
    }
}
