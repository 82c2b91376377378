// Cancellation unwinding a chain of rewritten methods: finally blocks (some awaiting) run innermost
// first, `using` disposes (sync and async), a catch filtered on the token (`when (token.IsCancellationRequested)`)
// handles it, a catch for a different token's cancellation does not, and a method that swallows the
// cancellation completes normally; the outer task's status shows what escaped.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class Resource : IDisposable, IAsyncDisposable
{
    private readonly string name;
    public Resource(string name) { this.name = name; }
    public void Dispose() => Program.Log("dispose " + name);
    public async ValueTask DisposeAsync()
    {
        if (Program.Suspend) await Task.Yield();
        Program.Log("dispose async " + name);
    }
}

static class Program
{
    public static bool Suspend;
    static readonly List<string> log = new();

    public static void Log(string s) { lock (log) log.Add(s); }

    static async Task Inner(CancellationToken token)
    {
        using var r = new Resource("inner");
        try
        {
            if (Suspend) await Task.Yield();
            token.ThrowIfCancellationRequested();
        }
        finally
        {
            if (Suspend) await Task.Yield();
            Log("inner finally");
        }
    }

    static async Task Middle(CancellationToken token)
    {
        await using var r = new Resource("middle");
        try
        {
            await Inner(token);
        }
        catch (OperationCanceledException) when (!token.IsCancellationRequested)
        {
            Log("middle: never, the token is canceled");
        }
        finally
        {
            Log("middle finally");
        }
    }

    static async Task<string> Outer(CancellationToken token, bool swallow)
    {
        try
        {
            await Middle(token);
            return "completed";
        }
        catch (OperationCanceledException e) when (swallow && e.CancellationToken == token)
        {
            if (Suspend) await Task.Yield();
            return "swallowed";
        }
    }

    static async Task Main()
    {
        var source = new CancellationTokenSource();
        source.Cancel();
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var swallow in new[] { true, false })
            {
                log.Clear();
                var task = Outer(source.Token, swallow);
                try { Console.WriteLine($"swallow={swallow}: {await task}"); }
                catch (OperationCanceledException e) { Console.WriteLine($"swallow={swallow}: {e.GetType().Name}, task {task.Status}"); }
                Console.WriteLine("  " + string.Join(" | ", log));
            }
        }
    }
}
