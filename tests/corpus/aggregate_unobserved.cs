// TaskScheduler.UnobservedTaskException as in classic async: a faulted task from a rewritten method
// that nobody observes raises the event when it is collected (made deterministic with GC.Collect and
// WaitForPendingFinalizers), with the exception wrapped in an AggregateException; observed faults
// (awaited, .Exception read, Wait) and canceled tasks do not raise it; SetObserved is honoured.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static readonly List<string> raised = new();

    static async Task Fails(string message)
    {
        if (Suspend) await Task.Yield();
        throw new InvalidOperationException(message);
    }

    static async Task<int> FailsWithResult(string message)
    {
        if (Suspend) await Task.Yield();
        throw new ArgumentException(message);
    }

    static async Task Cancels()
    {
        if (Suspend) await Task.Yield();
        throw new OperationCanceledException("canceled");
    }

    // Not inlined, so no reference to the task survives on the caller's stack.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static void StartAndForget(Func<Task> start)
    {
        var task = start();
        ((IAsyncResult)task).AsyncWaitHandle.WaitOne();
    }

    // A pool thread that completed a task may still hold it for a moment (classic builds failed
    // to report one on a loaded machine): collect until the count settles, with other work run
    // on the pool in between, so no thread keeps a finished task on its stack.
    static void Collect()
    {
        int stableRounds = 0, last = -1;
        for (int round = 0; round < 200 && stableRounds < 10; round++)
        {
            Task.WaitAll(Task.Run(() => { }), Task.Run(() => { }), Task.Run(() => { }), Task.Run(() => { }));
            GC.Collect();
            GC.WaitForPendingFinalizers();
            int count;
            lock (raised)
                count = raised.Count;
            stableRounds = count == last ? stableRounds + 1 : 0;
            last = count;
            Thread.Sleep(5);
        }
    }

    static void Main()
    {
        TaskScheduler.UnobservedTaskException += (_, e) =>
        {
            lock (raised)
                raised.Add($"{e.Exception.GetType().Name} of {e.Exception.InnerExceptions.Count}: {e.Exception.InnerException!.GetType().Name} '{e.Exception.InnerException.Message}'");
            if (e.Exception.InnerException!.Message.StartsWith("observe"))
                e.SetObserved();
        };
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            raised.Clear();
            Console.WriteLine($"-- suspend={suspend}");
            StartAndForget(() => Fails("forgotten"));
            StartAndForget(() => FailsWithResult("forgotten with result"));
            StartAndForget(() => Fails("observe in handler"));
            StartAndForget(Cancels);
            StartAndForget(() => { var t = Fails("exception read"); try { t.Wait(); } catch (AggregateException) { } return t; });
            StartAndForget(async () => { try { await Fails("awaited"); } catch (InvalidOperationException) { } });
            Collect();
            raised.Sort(StringComparer.Ordinal);
            foreach (var entry in raised) Console.WriteLine("raised: " + entry);
        }
    }
}
