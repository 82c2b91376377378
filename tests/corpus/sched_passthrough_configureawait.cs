// An exception thrown under a refusing TaskScheduler passes through a middle frame that awaited
// with ConfigureAwait(false): classic async runs that frame off the scheduler (on the pool), and
// the catching caller is queued back to the scheduler from there. Printed: where the catch ran.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class OwnThread : TaskScheduler
{
    private readonly BlockingCollection<Task> _q = new();
    public readonly Thread Thread;
    public int Queued, Offers;
    public OwnThread() { Thread = new Thread(() => { foreach (var t in _q.GetConsumingEnumerable()) TryExecuteTask(t); }) { IsBackground = true }; Thread.Start(); }
    protected override void QueueTask(Task t) { Interlocked.Increment(ref Queued); _q.Add(t); }
    protected override bool TryExecuteTaskInline(Task t, bool prev) { Interlocked.Increment(ref Offers); return false; }
    protected override IEnumerable<Task> GetScheduledTasks() => _q.ToArray();
}

static class Program
{
    static bool Suspend;
    static readonly OwnThread S = new();
    static string Where() => Thread.CurrentThread == S.Thread ? (TaskScheduler.Current == S ? "sched" : "sched-thread,other-scheduler") : (Thread.CurrentThread.IsThreadPoolThread ? "pool" : "other");

    static async Task<int> Thrower() { if (Suspend) await Task.Yield(); throw new InvalidOperationException("boom"); }
    static async Task<int> MidFalse() => await Thrower().ConfigureAwait(false);
    static async Task<int> MidFalse2() => 1 + await MidFalse();
    static async Task<int> MidPlainOverFalse() => await MidFalse2();

    static async Task<string> Catch(Func<Task<int>> f, bool direct)
    {
        try { if (direct) await MidPlainOverFalse(); else await f(); return "no"; }
        catch (InvalidOperationException) { return "caught on " + Where(); }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            foreach (var (name, f) in new (string, Func<Task<int>>)[] { ("midfalse", MidFalse), ("midfalse2", MidFalse2), ("plainoverfalse", MidPlainOverFalse) })
            {
                var t = Task.Factory.StartNew(() => Catch(f, false), CancellationToken.None, TaskCreationOptions.None, S).Unwrap();
                Console.WriteLine($"  {name}: {await t}");
            }
            var d = Task.Factory.StartNew(() => Catch(null!, true), CancellationToken.None, TaskCreationOptions.None, S).Unwrap();
            Console.WriteLine($"  direct: {await d}");
            await Task.Delay(50);
            Console.WriteLine($"  queued={S.Queued} offers={S.Offers}");
            S.Queued = 0; S.Offers = 0;
        }
    }
}
