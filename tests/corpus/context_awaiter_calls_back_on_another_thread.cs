// An awaiter that resumes its continuation on another thread and returns from OnCompleted only
// once it has resumed there: the registration is still going on when the callee runs again, but
// on another thread, and the callee completes only after its callers awaited it. In classic async
// those callers are continuations of its Task and, having captured no ExecutionContext (the flow
// is suppressed), go on in what it leaves: its values, not their own.
using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class OtherThreadAwaiter : ICriticalNotifyCompletion
{
    public static readonly ManualResetEventSlim CalleeResumed = new();
    public static readonly ManualResetEventSlim CallersAwaited = new();

    public OtherThreadAwaiter GetAwaiter() => this;
    public bool IsCompleted => false;
    public void GetResult() { }
    public void OnCompleted(Action continuation) => UnsafeOnCompleted(continuation);

    public void UnsafeOnCompleted(Action continuation)
    {
        new Thread(() => continuation()) { IsBackground = true }.Start();
        if (!CalleeResumed.Wait(TimeSpan.FromSeconds(30)))
            Console.WriteLine("the callee did not resume");
    }
}

static class Program
{
    static readonly AsyncLocal<string?> Value = new();
    static int mainThread;

    static string State() => $"value={Value.Value ?? "-"} on main={Environment.CurrentManagedThreadId == mainThread}";

    static async Task<int> Callee(bool throws)
    {
        Value.Value = "callee before";
        await new OtherThreadAwaiter();
        OtherThreadAwaiter.CalleeResumed.Set();
        if (!OtherThreadAwaiter.CallersAwaited.Wait(TimeSpan.FromSeconds(30)))
            Console.WriteLine("the callers did not await");
        Value.Value = "callee";
        if (throws)
            throw new InvalidOperationException("thrown by callee");
        return 1;
    }

    static async Task<int> Middle(bool throws)
    {
        try
        {
            int result = await Callee(throws);
            Console.WriteLine($"  middle after its await: {State()}");
            return result;
        }
        catch (InvalidOperationException)
        {
            Console.WriteLine($"  middle caught: {State()}");
            return -1;
        }
    }

    static async Task Outer(bool throws)
    {
        Value.Value = "outer";
        int result = await Middle(throws);
        Console.WriteLine($"  outer after its await: result={result} {State()}");
    }

    static void Main()
    {
        mainThread = Environment.CurrentManagedThreadId;
        foreach (var throws in new[] { false, true })
        {
            Console.WriteLine(throws ? "the callee throws" : "the callee returns");
            OtherThreadAwaiter.CalleeResumed.Reset();
            OtherThreadAwaiter.CallersAwaited.Reset();
            ExecutionContext.SuppressFlow();
            Task task = Outer(throws);
            ExecutionContext.RestoreFlow();
            OtherThreadAwaiter.CallersAwaited.Set();
            if (!task.Wait(TimeSpan.FromSeconds(30)))
                Console.WriteLine("the task did not complete");
            Console.WriteLine($"  main: {task.Status}");
        }
    }
}
