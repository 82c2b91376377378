// Flowing context mode and the SynchronizationContext (seed 002: in the async2 model a caller
// resumes on "the context that was current just before the return statement" of the method it
// awaited). On a single-threaded loop: a flowing callee that installs another loop leaves it current
// for its caller, whose next plain await then continues on that loop; a flowing callee that left the
// loop with ConfigureAwait(false) returns its caller off the loop; the same callees opted out with
// [FlowContexts(false)] behave as classic async (their caller is back on its own loop).
using System;
using System.Threading;
using System.Threading.Tasks;

[assembly: Async2.Runtime.FlowContexts]

static class Program
{
    static bool Suspend;
    static SingleThreadLoop A = null!, B = null!;

    static string Where() =>
        Thread.CurrentThread == A.Thread ? "A" : Thread.CurrentThread == B.Thread ? "B" : "pool";

    static Task Pending() => Suspend ? Task.Delay(1) : Task.CompletedTask;

    static async Task InstallsB()
    {
        await Pending();
        SynchronizationContext.SetSynchronizationContext(B);
    }

    static async Task LeavesLoop()
    {
        await Pending().ConfigureAwait(false);
    }

    [Async2.Runtime.FlowContexts(false)]
    static async Task InstallsBCompatibly()
    {
        await Pending();
        SynchronizationContext.SetSynchronizationContext(B);
    }

    [Async2.Runtime.FlowContexts(false)]
    static async Task LeavesLoopCompatibly()
    {
        await Pending().ConfigureAwait(false);
    }

    static async Task<string> OnA()
    {
        string s = "start " + Where();
        await InstallsB();
        await Task.Yield();
        s += ", after flowing InstallsB and a yield " + Where();
        SynchronizationContext.SetSynchronizationContext(A);
        await Task.Yield();
        s += ", back " + Where();
        await LeavesLoop();
        s += ", after flowing LeavesLoop " + Where();
        return s;
    }

    [Async2.Runtime.FlowContexts(false)]
    static async Task<string> OnACompatibly()
    {
        string s = "start " + Where();
        await InstallsBCompatibly();
        await Task.Yield();
        s += ", after compatible InstallsB and a yield " + Where();
        await LeavesLoopCompatibly();
        s += ", after compatible LeavesLoop " + Where();
        return s;
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var scenario in new Func<Task<string>>[] { OnA, OnACompatibly })
            {
                A = new SingleThreadLoop("A");
                B = new SingleThreadLoop("B");
                var started = new TaskCompletionSource<Task<string>>();
                A.Post(_ => started.SetResult(scenario()), null);
                Console.WriteLine(started.Task.Result.Result);
                A.Stop();
                B.Stop();
            }
        }
    }
}
