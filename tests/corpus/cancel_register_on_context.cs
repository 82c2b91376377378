// CancellationToken.Register with useSynchronizationContext: true from a method running on a
// single-threaded loop: the callback is sent to the loop and runs there after Cancel() from another
// thread, a callback registered without it runs on the canceling thread, and the method awaiting the
// cancellation resumes on the loop; the token's registrations are disposed with `using`.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static SingleThreadLoop Loop = null!;
    static readonly List<string> log = new();

    static string OnLoop => (Thread.CurrentThread == Loop.Thread).ToString().ToLowerInvariant();

    static async Task<string> AwaitCancellation(CancellationToken token)
    {
        var canceled = new TaskCompletionSource();
        using var onLoop = token.Register(() => { lock (log) log.Add("context callback on loop " + OnLoop); canceled.TrySetResult(); }, useSynchronizationContext: true);
        using var inline = token.Register(() => { lock (log) log.Add("plain callback on loop " + OnLoop); });
        if (Suspend) await Task.Yield();
        await canceled.Task;
        return "awaiter resumed on loop " + OnLoop;
    }

    static async Task Scenario()
    {
        var source = new CancellationTokenSource();
        var waiting = AwaitCancellation(source.Token);
        await Task.Run(() => source.Cancel());
        Console.WriteLine(await waiting);
        lock (log)
            foreach (var entry in log) Console.WriteLine("  " + entry);
        log.Clear();
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Loop = new SingleThreadLoop();
            Loop.RunUntilComplete(Scenario);
            Loop.Stop();
        }
    }
}
