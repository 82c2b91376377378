// TaskCompletionSource completed from another thread and from a timer, with a result, with an
// exception and canceled; Task.Run over synchronous work and over async methods of the program;
// Task.Delay; Task.Yield in a loop; awaiting an already completed TaskCompletionSource task.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static Task<int> FromThread(int value)
    {
        var tcs = new TaskCompletionSource<int>();
        if (!Suspend) { tcs.SetResult(value); return tcs.Task; }
        var thread = new Thread(() => { Thread.Sleep(2); tcs.SetResult(value); });
        thread.Start();
        return tcs.Task;
    }

    static Task<string> FromTimer(string value, int mode)
    {
        var tcs = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        Action complete = () =>
        {
            if (mode == 0) tcs.SetResult(value);
            else if (mode == 1) tcs.SetException(new TimeoutException("timer said no to " + value));
            else tcs.SetCanceled();
        };
        if (!Suspend) complete();
        else
        {
            Timer? timer = null;
            timer = new Timer(_ => { complete(); timer!.Dispose(); }, null, 3, Timeout.Infinite);
        }
        return tcs.Task;
    }

    static Task NonGeneric(bool fail)
    {
        var tcs = new TaskCompletionSource();
        ThreadPool.QueueUserWorkItem(_ =>
        {
            if (Suspend) Thread.Sleep(1);
            if (fail) tcs.SetException(new ApplicationException("non-generic failed"));
            else tcs.SetResult();
        });
        return tcs.Task;
    }

    static async Task<int> Square(int x)
    {
        if (Suspend) await Task.Yield();
        return x * x;
    }

    static async Task<string> Scenario()
    {
        string s = "";
        s += await FromThread(1) + await FromThread(2) * 10 + " ";
        for (int mode = 0; mode < 3; mode++)
        {
            try { s += await FromTimer("m" + mode, mode) + " "; }
            catch (Exception e) { s += e.GetType().Name + ": " + e.Message + " "; }
        }
        try { await NonGeneric(false); s += "ng-ok "; await NonGeneric(true); }
        catch (Exception e) { s += e.GetType().Name + ": " + e.Message + " "; }
        s += await Task.Run(() => 6 * 7) + " ";
        s += await Task.Run(() => Square(9)) + " ";
        await Task.Run(() => { });
        await Task.Delay(Suspend ? 2 : 0);
        int yields = 0;
        for (int i = 0; i < 5; i++)
        {
            await Task.Yield();
            yields++;
        }
        s += "yields=" + yields;
        var done = new TaskCompletionSource<decimal>();
        done.SetResult(2.5m);
        s += " done=" + await done.Task;
        return s;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Scenario());
        }
    }
}
