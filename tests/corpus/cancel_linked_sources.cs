// Cancellation flowing through chains of rewritten methods: a linked token source canceled by either
// parent, a chain that cancels its own source after some steps (so where it stops is deterministic),
// Task.Delay(Infinite, token), Task.WaitAsync(token), SemaphoreSlim.WaitAsync(token), a canceled
// TaskCompletionSource with its token, and the token carried by each exception.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> Steps(CancellationTokenSource own, CancellationToken token, int cancelAt)
    {
        int done = 0;
        while (true)
        {
            if (Suspend) await Task.Yield();
            token.ThrowIfCancellationRequested();
            done++;
            if (done == cancelAt) own.Cancel();
        }
    }

    static async Task<string> Linked(bool cancelFirst)
    {
        var a = new CancellationTokenSource();
        var b = new CancellationTokenSource();
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(a.Token, b.Token);
        var source = cancelFirst ? a : b;
        try
        {
            int n = await Steps(source, linked.Token, 3);
            return "finished " + n;
        }
        catch (OperationCanceledException e)
        {
            return $"linked canceled by {(cancelFirst ? "a" : "b")}: token is linked {(e.CancellationToken == linked.Token).ToString().ToLowerInvariant()}, a {a.IsCancellationRequested}, b {b.IsCancellationRequested}";
        }
    }

    static async Task<string> Waits()
    {
        var source = new CancellationTokenSource();
        var pending = new TaskCompletionSource<int>();
        string s = "";
        var delay = Task.Delay(Timeout.Infinite, source.Token);
        var wait = pending.Task.WaitAsync(source.Token);
        var semaphore = new SemaphoreSlim(0);
        var enter = semaphore.WaitAsync(source.Token);
        if (Suspend) await Task.Yield();
        source.Cancel();
        try { await delay; } catch (OperationCanceledException e) { s += $"delay {e.GetType().Name} token {(e.CancellationToken == source.Token).ToString().ToLowerInvariant()}"; }
        try { await wait; } catch (OperationCanceledException e) { s += $"; WaitAsync {e.GetType().Name}"; }
        try { await enter; } catch (OperationCanceledException e) { s += $"; semaphore {e.GetType().Name}"; }
        var canceled = new TaskCompletionSource<string>();
        canceled.SetCanceled(source.Token);
        try { await canceled.Task; } catch (TaskCanceledException e) { s += $"; tcs token {(e.CancellationToken == source.Token).ToString().ToLowerInvariant()}, task {canceled.Task.Status}"; }
        return s;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Linked(true));
            Console.WriteLine(await Linked(false));
            Console.WriteLine(await Waits());
        }
    }
}
