// CancellationToken callbacks around async methods: callbacks registered inside async methods run in
// reverse registration order when the source is canceled; a registration disposed before cancellation
// does not run; a callback completing a TaskCompletionSource resumes the suspended method that awaits
// it; registering on an already canceled token runs at once; a throwing callback surfaces as an
// AggregateException from Cancel(); the callback sees the AsyncLocal value of its registration.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static readonly List<string> log = new();
    static readonly AsyncLocal<string?> Who = new AsyncLocal<string?>();

    static void Log(string entry)
    {
        lock (log) log.Add(entry);
    }

    static async Task<string> WaitForCancellation(CancellationToken token, string name, TaskCompletionSource registered)
    {
        Who.Value = name;
        if (Suspend) await Task.Yield();
        var source = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        using (token.Register(() => { Log("callback " + name + " sees " + Who.Value); source.TrySetResult(name + " released"); }))
        {
            registered.SetResult();
            if (Suspend) await Task.Yield();
            string result = await source.Task;
            return result + ", local " + Who.Value;
        }
    }

    static async Task RegisterAndDispose(CancellationToken token)
    {
        var registration = token.Register(() => Log("disposed registration ran"));
        if (Suspend) await Task.Yield();
        registration.Dispose();
    }

    static async Task<string> OnCanceledToken()
    {
        var source = new CancellationTokenSource();
        source.Cancel();
        bool ran = false;
        if (Suspend) await Task.Yield();
        source.Token.Register(() => ran = true);
        return "registered on canceled token ran at once: " + ran.ToString().ToLowerInvariant();
    }

    static async Task<string> ThrowingCallbacks()
    {
        var source = new CancellationTokenSource();
        source.Token.Register(() => throw new InvalidOperationException("first"));
        source.Token.Register(() => throw new ArgumentException("second"));
        if (Suspend) await Task.Yield();
        try
        {
            source.Cancel();
            return "no exception";
        }
        catch (AggregateException e)
        {
            var names = new List<string>();
            foreach (var inner in e.InnerExceptions) names.Add(inner.GetType().Name + ":" + inner.Message);
            return "Cancel threw Aggregate [" + string.Join(", ", names) + "]";
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            log.Clear();
            Console.WriteLine($"-- suspend={suspend}");
            var source = new CancellationTokenSource();
            // Registered one after the other, so the callbacks' order is the registrations' order reversed.
            var firstRegistered = new TaskCompletionSource();
            var first = WaitForCancellation(source.Token, "first", firstRegistered);
            await firstRegistered.Task;
            var secondRegistered = new TaskCompletionSource();
            var second = WaitForCancellation(source.Token, "second", secondRegistered);
            await secondRegistered.Task;
            await RegisterAndDispose(source.Token);
            source.Cancel();
            Console.WriteLine(await first);
            Console.WriteLine(await second);
            foreach (var entry in log) Console.WriteLine(entry);
            Console.WriteLine(await OnCanceledToken());
            Console.WriteLine(await ThrowingCallbacks());
        }
    }
}
