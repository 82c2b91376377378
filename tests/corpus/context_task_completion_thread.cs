// Where a rewritten method's Task completes after a suspension: classic async completes it from
// the method's last step, on the thread and in the context that step ran in, so a continuation
// registered with ExecuteSynchronously runs there too. Under a single-threaded loop whose thread
// then blocks for the task (Nito.AsyncEx's AsyncContext.Run, a UI thread waiting on a Task), a
// completion queued to the thread pool instead waits for a pool thread, up to the pool's thread
// injection delay (about 0.5 s) when its threads are busy: issue 11, bug 3. Each scenario prints
// whether the task completed on the loop and how it ended. Covered: an exception after Task.Yield
// (the lambda), a completion after Task.Yield, a result, an exception from a callee that
// the caller does not catch (the caller's frame is passed through), the same from a callee that
// left the loop with ConfigureAwait(false) (the caller's frame still belongs on the loop), and a
// caller that itself awaited with ConfigureAwait(false) (classic completes it on the pool).
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static SingleThreadLoop Loop = null!;

    static string Run(Func<Task> body)
    {
        var result = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        Loop.Post(_ =>
        {
            Task task = body();
            task.ContinueWith(t =>
            {
                string outcome = t.IsFaulted ? "threw " + t.Exception!.InnerException!.GetType().Name : t.Status.ToString();
                result.SetResult($"completed on loop {Loop.IsCurrent.ToString().ToLowerInvariant()}, {outcome}");
            }, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        }, null);
        return result.Task.Result;
    }

    static async Task YieldsThenThrows()
    {
        await Task.Yield();
        throw new NotImplementedException();
    }

    static async Task LeavesLoopThenThrows()
    {
        await Task.Delay(1).ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
        throw new InvalidOperationException();
    }

    static async Task<int> LeavesLoopThenReturns()
    {
        await Task.Delay(1).ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
        return 7;
    }

    static async Task PassesThrough() => await YieldsThenThrows();

    static async Task PassesThroughFromOffLoop()
    {
        await LeavesLoopThenThrows();
        Console.WriteLine("  not reached");
    }

    static async Task<int> ReturnsAfterOffLoopCallee() => await LeavesLoopThenReturns() + 1;

    static async Task AwaitsWithoutContext()
    {
        await YieldsThenThrows().ConfigureAwait(false);
    }

    static async Task CatchesFromOffLoop()
    {
        try { await LeavesLoopThenThrows(); }
        catch (InvalidOperationException) { Console.WriteLine($"  caught on loop {Loop.IsCurrent.ToString().ToLowerInvariant()}"); throw; }
    }

    static int Main()
    {
        Loop = new SingleThreadLoop();
        Console.WriteLine("throw after yield (lambda): " + Run(async () => { await Task.Yield(); throw new NotImplementedException(); }));
        Console.WriteLine("return after yield (lambda): " + Run(async () => { await Task.Yield(); }));
        Func<Task<int>> result = async () => { await Task.Yield(); return 42; };
        Console.WriteLine("result after yield (lambda): " + Run(result));
        Console.WriteLine("throw after yield: " + Run(YieldsThenThrows));
        Console.WriteLine("passed through: " + Run(PassesThrough));
        Console.WriteLine("passed through from off the loop: " + Run(PassesThroughFromOffLoop));
        Console.WriteLine("result from off the loop: " + Run(ReturnsAfterOffLoopCallee));
        Console.WriteLine("caught and rethrown from off the loop: " + Run(CatchesFromOffLoop));
        Console.WriteLine("caller awaits with ConfigureAwait(false): " + Run(AwaitsWithoutContext));
        Console.WriteLine("nested lambdas: " + Run(async () =>
        {
            Func<Task<int>> inner = async () => { await Task.Yield(); return 1; };
            int v = await inner();
            if (v == 1) throw new ArgumentException();
        }));
        Loop.Stop();
        return 0;
    }
}
