// AsyncLocal change notifications for explicit assignments made by rewritten methods, before and
// after suspensions, in callees and callers, printed in order (notifications caused by execution
// context switches are counted only as "at least one", since classic async itself gives them at
// points that are not part of the language's contract).
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static readonly List<string> changes = new();
    static int contextSwitches;
    static readonly AsyncLocal<string?> Watched = new AsyncLocal<string?>(args =>
    {
        if (args.ThreadContextChanged)
            Interlocked.Increment(ref contextSwitches);
        else
            lock (changes) changes.Add($"{args.PreviousValue ?? "null"} -> {args.CurrentValue ?? "null"}");
    });

    static async Task Pause()
    {
        if (Suspend) await Task.Delay(1);
    }

    static async Task Callee()
    {
        Watched.Value = "callee-1";
        await Pause();
        Watched.Value = "callee-2";
    }

    static async Task<string> Caller()
    {
        Watched.Value = "caller-1";
        await Pause();
        await Callee();
        string seen = Watched.Value ?? "null";
        Watched.Value = "caller-2";
        return seen;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            changes.Clear();
            contextSwitches = 0;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine("caller saw " + await Caller());
            Console.WriteLine("main sees " + (Watched.Value ?? "null"));
            lock (changes)
                foreach (var change in changes) Console.WriteLine("  " + change);
            Console.WriteLine("context switches notified: " + (contextSwitches > 0 ? "yes" : "none"));
        }
    }
}
