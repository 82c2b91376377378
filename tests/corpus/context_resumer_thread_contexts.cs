// A custom awaiter whose continuation the completing thread runs itself (a driver loop, an event
// source): what the resumed method changes, AsyncLocal values and the SynchronizationContext,
// stays the method's, and the completing thread's own contexts are as they were, whether that
// thread was in the method's ExecutionContext already, had AsyncLocal values of its own, or had a
// SynchronizationContext.
using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class Manual : ICriticalNotifyCompletion
{
    private Action? _pending;
    public Manual GetAwaiter() => this;
    public bool IsCompleted => false;
    public void GetResult() { }
    public void OnCompleted(Action continuation) => _pending = continuation;
    public void UnsafeOnCompleted(Action continuation) => _pending = continuation;
    public bool TryStep()
    {
        var next = Interlocked.Exchange(ref _pending, null);
        next?.Invoke();
        return next is not null;
    }
}

sealed class Named(string name) : SynchronizationContext
{
    public override string ToString() => name;
}

static class Program
{
    static readonly AsyncLocal<string?> Local = new();

    static void Print(string where) =>
        Console.WriteLine($"  {where}: local={Local.Value ?? "-"} context={SynchronizationContext.Current?.ToString() ?? "-"}");

    static async Task Body(Manual awaiter)
    {
        Print("body before");
        await awaiter;
        Print("body resumed");
        Local.Value = "body's";
        SynchronizationContext.SetSynchronizationContext(new Named("body's"));
        await awaiter;
        Print("body resumed again");
        Local.Value = "body's second";
        SynchronizationContext.SetSynchronizationContext(null);
        await awaiter;
        Print("body at the end");
    }

    static async Task<int> Nested(Manual awaiter)
    {
        await Body(awaiter);
        Local.Value = "nested's";
        return 1;
    }

    static void Drive(string name, Func<Manual, Task> start, string? resumerLocal, SynchronizationContext? resumerContext)
    {
        Console.WriteLine(name);
        var awaiter = new Manual();
        var task = start(awaiter);
        Local.Value = resumerLocal;
        SynchronizationContext.SetSynchronizationContext(resumerContext);
        for (int step = 1; !task.IsCompleted; step++)
        {
            if (!awaiter.TryStep())
            {
                // The rest runs on the thread pool: a caller that captured no context does not
                // continue inline under the resumer's SynchronizationContext.
                task.Wait();
                break;
            }
            Print($"resumer after step {step}");
        }
        Console.WriteLine($"  task: {task.Status}");
        Local.Value = null;
        SynchronizationContext.SetSynchronizationContext(null);
    }

    static void Main()
    {
        Drive("resumer in the body's context", Body, null, null);
        Drive("resumer with an AsyncLocal of its own", Body, "resumer's", null);
        Drive("resumer with a SynchronizationContext", Body, null, new Named("resumer's"));
        Drive("nested, resumer in the body's context", a => Nested(a), null, null);
        Drive("nested, resumer with both", a => Nested(a), "resumer's", new Named("resumer's"));
    }
}
