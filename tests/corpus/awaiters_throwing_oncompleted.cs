// An awaiter whose OnCompleted throws (a ValueTask source given a second waiter, a channel read
// twice), at a method's first suspension and after it suspended once and was resumed by user
// code: classic async's builder rethrows the exception on the thread pool, unhandled, and leaves
// the method's Task incomplete; the caller sees a pending Task and the code that resumed the
// method returns normally. The exit code and the first line of stderr are compared too.
using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class Manual : ICriticalNotifyCompletion
{
    public Action? Continuation;
    public Manual GetAwaiter() => this;
    public bool IsCompleted => false;
    public void OnCompleted(Action continuation) => Continuation = continuation;
    public void UnsafeOnCompleted(Action continuation) => Continuation = continuation;
    public int GetResult() => 1;
}

struct Refusing : ICriticalNotifyCompletion
{
    public Refusing GetAwaiter() => this;
    public bool IsCompleted => false;
    public void OnCompleted(Action continuation) => throw new InvalidOperationException("no more waiters");
    public void UnsafeOnCompleted(Action continuation) => throw new InvalidOperationException("no more waiters");
    public int GetResult() => 1;
}

static class Program
{
    static readonly ManualResetEventSlim MainDone = new();
    static int s_unhandled;

    static async Task<int> RefusesAtOnce()
    {
        Console.WriteLine("before the refusing awaiter");
        int result = await new Refusing();
        Console.WriteLine("after the refusing awaiter (not reached)");
        return result;
    }

    static async Task<int> Inner(Manual manual)
    {
        int result = await manual;
        Console.WriteLine("resumed");
        result += await new Refusing();
        Console.WriteLine("after the refusing awaiter (not reached)");
        return result;
    }

    static async Task<int> Outer(Manual manual)
    {
        try
        {
            return await Inner(manual) + 1;
        }
        catch (Exception e)
        {
            Console.WriteLine($"caught in Outer (not classic): {e.Message}");
            return -1;
        }
    }

    static void Main()
    {
        AppDomain.CurrentDomain.UnhandledException += (_, e) =>
        {
            // Two are raised; the process ends after the first handler returns.
            if (Interlocked.Increment(ref s_unhandled) > 1)
                Thread.Sleep(Timeout.Infinite);
            MainDone.Wait();
            Console.WriteLine($"unhandled: {((Exception)e.ExceptionObject).Message}");
            Console.Out.Flush();
        };
        var first = RefusesAtOnce();
        Console.WriteLine($"first suspension: {first.Status}");
        var manual = new Manual();
        var task = Outer(manual);
        Console.WriteLine($"returned: {task.Status}");
        try
        {
            manual.Continuation!();
            Console.WriteLine("the resuming code returned");
        }
        catch (Exception e)
        {
            Console.WriteLine($"the resuming code caught (not classic): {e.Message}");
        }
        Console.WriteLine($"task: {task.Status}, first: {first.Status}");
        MainDone.Set();
        Thread.Sleep(Timeout.Infinite);
    }
}
