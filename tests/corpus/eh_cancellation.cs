// cancellation through awaits: OperationCanceledException thrown by an async method makes its task
// Canceled (not Faulted), Task.Delay with a token canceled before and during the wait, canceled
// TaskCompletionSource tasks, ThrowIfCancellationRequested after a suspension, catch by
// OperationCanceledException and by TaskCanceledException, and the token carried by the exception.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> Work(CancellationToken token, int steps)
    {
        int done = 0;
        for (int i = 0; i < steps; i++)
        {
            if (Suspend) await Task.Yield();
            token.ThrowIfCancellationRequested();
            done++;
        }
        return done;
    }

    static async Task CancelsItself()
    {
        if (Suspend) await Task.Yield();
        throw new OperationCanceledException("self canceled");
    }

    static async Task<string> Status(Task task)
    {
        try
        {
            await task;
            return "RanToCompletion";
        }
        catch (Exception e)
        {
            return $"{task.Status} via {e.GetType().Name}";
        }
    }

    static async Task<string> Scenario()
    {
        var s = "";
        var cts = new CancellationTokenSource();
        s += "work=" + await Work(cts.Token, 3);
        cts.Cancel();
        try
        {
            await Work(cts.Token, 3);
        }
        catch (OperationCanceledException e)
        {
            s += $" canceled(token matches={e.CancellationToken == cts.Token})";
        }
        s += " | self: " + await Status(CancelsItself());
        s += " | delay pre-canceled: " + await Status(Task.Delay(1000, cts.Token));

        var later = new CancellationTokenSource();
        var delay = Task.Delay(Suspend ? 10_000 : 0, later.Token);
        later.Cancel();
        s += " | delay canceled during wait: " + await Status(delay);

        var tcs = new TaskCompletionSource<int>();
        tcs.SetCanceled();
        try
        {
            await tcs.Task;
        }
        catch (TaskCanceledException e)
        {
            s += " | tcs: " + e.GetType().Name + ": " + e.Message;
        }
        Task<int> wrapped = Work(cts.Token, 1);
        s += " | wrapped: " + await Status(wrapped) + " canceled=" + wrapped.IsCanceled;
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
