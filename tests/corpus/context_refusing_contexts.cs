// Contexts that refuse the continuation a caller is sent back with, after its rewritten callee
// completed elsewhere: a TaskScheduler whose QueueTask throws once closed (classic async drops
// the continuation; the Task stays incomplete) and a SynchronizationContext whose Post throws once
// closed (classic async rethrows on the thread pool, unhandled; the code that completed the callee
// returns normally). The exit code and the first line of stderr are compared too.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class ClosableScheduler : TaskScheduler
{
    public volatile bool Closed;

    protected override void QueueTask(Task task)
    {
        if (Closed)
            throw new ObjectDisposedException("scheduler");
        ThreadPool.UnsafeQueueUserWorkItem(_ => TryExecuteTask(task), null);
    }

    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => false;
    protected override IEnumerable<Task> GetScheduledTasks() => [];
}

sealed class ClosedContext : SynchronizationContext
{
    public override void Post(SendOrPostCallback callback, object? state) => throw new InvalidOperationException("context closed");
}

sealed class Manual : ICriticalNotifyCompletion
{
    public Action? Continuation;
    public Manual GetAwaiter() => this;
    public bool IsCompleted => false;
    public void OnCompleted(Action continuation) => Continuation = continuation;
    public void UnsafeOnCompleted(Action continuation) => Continuation = continuation;
    public int GetResult() => 1;
}

static class Program
{
    static readonly ManualResetEventSlim MainDone = new();
    static readonly ManualResetEventSlim StartedOnScheduler = new();

    static async Task<int> AfterGate(Task gate)
    {
        await gate.ConfigureAwait(false);
        return 1;
    }

    static async Task<int> OnScheduler(Task gate)
    {
        StartedOnScheduler.Set();
        int result = await AfterGate(gate);
        Console.WriteLine("resumed on the closed scheduler (not classic)");
        return result + 1;
    }

    static async Task<int> AfterManual(Manual manual) => await manual + 1;

    static async Task<int> OnContext(Manual manual)
    {
        int result = await AfterManual(manual);
        Console.WriteLine("resumed under the closed context (not classic)");
        return result;
    }

    static void Main()
    {
        AppDomain.CurrentDomain.UnhandledException += (_, e) =>
        {
            MainDone.Wait();
            Console.WriteLine($"unhandled: {((Exception)e.ExceptionObject).Message}");
            Console.Out.Flush();
        };

        var scheduler = new ClosableScheduler();
        var gate = new TaskCompletionSource();
        var onScheduler = Task.Factory.StartNew(() => OnScheduler(gate.Task), CancellationToken.None, TaskCreationOptions.None, scheduler).Unwrap();
        StartedOnScheduler.Wait();
        Thread.Sleep(50); // until the task that started it is done with the scheduler
        scheduler.Closed = true;
        var completer = new Thread(() =>
        {
            try
            {
                gate.SetResult();
                Console.WriteLine("the scheduler's completer returned");
            }
            catch (Exception e)
            {
                Console.WriteLine($"the scheduler's completer caught (not classic): {e.GetType().Name}");
            }
        });
        completer.Start();
        completer.Join();
        Thread.Sleep(200);
        Console.WriteLine($"on the closed scheduler: {onScheduler.Status}");

        var manual = new Manual();
        SynchronizationContext.SetSynchronizationContext(new ClosedContext());
        var onContext = OnContext(manual);
        SynchronizationContext.SetSynchronizationContext(null);
        try
        {
            manual.Continuation!();
            Console.WriteLine("the context's completer returned");
        }
        catch (Exception e)
        {
            Console.WriteLine($"the context's completer caught (not classic): {e.Message}");
        }
        Console.WriteLine($"under the closed context: {onContext.Status}");
        MainDone.Set();
        Thread.Sleep(Timeout.Infinite);
    }
}
