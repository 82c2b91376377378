// Blocking on rewritten async methods from a single-threaded SynchronizationContext (a UI-like loop):
// a chain deadlocks (bounded by Wait(timeout)) unless every pending await in it escapes the context.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static SingleThreadLoop Loop = null!;

    static string Where() => Loop.IsCurrent ? "loop" : (Thread.CurrentThread == Loop.Thread ? "loopthread-noctx" : (SynchronizationContext.Current == null ? "pool" : "other"));

    static Task Pending() => Suspend ? Task.Delay(5) : Task.CompletedTask;

    // All ConfigureAwait(false)
    static async Task<int> LeafF() { await Pending().ConfigureAwait(false); return 1; }
    static async Task<int> MidF() { int x = await LeafF().ConfigureAwait(false); await Pending().ConfigureAwait(false); return x + 1; }
    static async Task<int> TopF() => await MidF().ConfigureAwait(false) + 1;

    // Leaf escapes, caller does not
    static async Task<int> MidPlain() { int x = await LeafF(); return x + 10; }
    static async Task<int> TopOverPlain() => await MidPlain().ConfigureAwait(false) + 1;

    // Leaf plain, callers escape
    static async Task<int> LeafPlain() { await Pending(); return 2; }
    static async Task<int> TopOverLeafPlain() => await LeafPlain().ConfigureAwait(false) + 1;

    // Yield under context
    static async Task<int> Yielding() { if (Suspend) await Task.Yield(); return 3; }

    // Escapes, then plain await afterwards (no context left to capture)
    static async Task<int> EscapesThenPlain() { await Pending().ConfigureAwait(false); await Pending(); await Task.Yield(); return 4; }
    static async Task<int> CallerOfEscapes() { int x = await EscapesThenPlain(); return x; }

    // Task.Run inside
    static async Task<int> ViaTaskRun() => await Task.Run(async () => { await Task.Delay(20); await LeafPlain(); return 5; });
    static async Task<int> CallerViaTaskRun() => await ViaTaskRun().ConfigureAwait(false);

    // Clears the context before awaiting
    static async Task<int> ClearsContext()
    {
        SynchronizationContext.SetSynchronizationContext(null);
        await Pending();
        int x = await LeafPlain();
        return x + 100;
    }
    static async Task<int> CallerOfClears() { int x = await ClearsContext(); return x; }
    static async Task<int> CallerOfClearsF() { int x = await ClearsContext().ConfigureAwait(false); return x; }

    // ForceYielding
    static async Task<int> Forced() { await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding); await Pending(); return 6; }
    static async Task<int> CallerOfForced() => await Forced().ConfigureAwait(false);

    // Long enough for a chain that escapes the loop to finish on a loaded machine (its awaits take
    // a few milliseconds); a deadlocked chain costs this much per case.
    static readonly TimeSpan Bound = TimeSpan.FromSeconds(1);

    static void Try(string name, Func<Task<int>> start, string how)
    {
        var t = start();
        bool done;
        int r = -1;
        switch (how)
        {
            case "wait": done = t.Wait(Bound); break;
            default:
                var waiter = Task.Run(() => t.GetAwaiter().GetResult());
                done = waiter.Wait(Bound) && t.IsCompleted; break;
        }
        if (done) r = t.Result;
        Console.WriteLine($"  {name} [{how}] completed={done} result={r} where={Where()}");
        Pendings = Pendings.ContinueWith(_ => t, TaskScheduler.Default).Unwrap();
    }

    static Task Pendings = Task.CompletedTask;

    static async Task Main()
    {
        Loop = new SingleThreadLoop();
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            foreach (var how in new[] { "wait", "getresult-offthread" })
            {
                Loop.RunUntilComplete(async () =>
                {
                    Try("TopF", TopF, how);
                    Try("TopOverPlain", TopOverPlain, how);
                    Try("TopOverLeafPlain", TopOverLeafPlain, how);
                    Try("Yielding", Yielding, how);
                    Try("CallerOfEscapes", CallerOfEscapes, how);
                    Try("CallerViaTaskRun", CallerViaTaskRun, how);
                    Try("CallerOfClears", CallerOfClears, how);
                    Console.WriteLine($"  after CallerOfClears context restored: {Loop.IsCurrent}");
                    Try("CallerOfClearsF", CallerOfClearsF, how);
                    Console.WriteLine($"  after CallerOfClearsF context restored: {Loop.IsCurrent}");
                    Try("CallerOfForced", CallerOfForced, how);
                    await Task.Yield();
                    Console.WriteLine($"  body resumed on {Where()}");
                });
                await Pendings;
                Console.WriteLine("  all drained");
            }
        }
        Loop.Stop();
    }
}
