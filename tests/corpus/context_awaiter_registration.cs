// A custom awaiter reads AsyncLocal values and Activity.Current when it is given the continuation
// (a priority queue, a tracing scheduler): it must see the awaiting method's, which set them
// before the await, not its caller's, also when that method's callers are rewritten methods whose
// context scopes put their own values back while the chain unwinds.
using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

readonly struct PriorityYield : ICriticalNotifyCompletion
{
    public static readonly AsyncLocal<string> Priority = new();
    public PriorityYield GetAwaiter() => this;
    public bool IsCompleted => false;
    public void OnCompleted(Action continuation) => UnsafeOnCompleted(continuation);
    public void UnsafeOnCompleted(Action continuation)
    {
        Console.WriteLine($"  awaiter queues the continuation: priority={Priority.Value} activity={Activity.Current?.OperationName ?? "none"}");
        ThreadPool.UnsafeQueueUserWorkItem(_ => continuation(), null);
    }
    public void GetResult() { }
}

static class Program
{
    static async Task Work(string priority)
    {
        PriorityYield.Priority.Value = priority;
        using var activity = new Activity("work-" + priority).Start();
        await new PriorityYield();
        Console.WriteLine($"  work resumed: priority={PriorityYield.Priority.Value} activity={Activity.Current?.OperationName}");
    }

    static async Task Middle() { await Work("high"); }

    static async Task Caller() { await Middle(); }

    static async Task Main()
    {
        PriorityYield.Priority.Value = "low";
        Console.WriteLine("awaited directly:");
        await Work("direct");
        Console.WriteLine("through two callers:");
        await Caller();
        Console.WriteLine($"main: priority={PriorityYield.Priority.Value}");
    }
}
