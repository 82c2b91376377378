// Awaits of a Task right under a Task surface (the method is called through its Task, and the chain
// suspends in it): the continuation sees the method's own AsyncLocal values even though the caller
// changed its own before the Task completed; and where the flow was suppressed at the await, it runs
// in the completing thread's context, as a classic state machine that captured no context does,
// also when the flow is suppressed only at a later await.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static readonly AsyncLocal<string?> Value = new AsyncLocal<string?>();

    static string Now => Value.Value ?? "null";

    static async Task<string> AwaitsWithItsOwnValue(Task gate)
    {
        Value.Value = "method";
        await gate;
        return "after await: " + Now;
    }

    static async Task<string> AwaitsWithFlowSuppressed(Task gate)
    {
        Value.Value = "method";
        ExecutionContext.SuppressFlow(); // not undone here: the await may continue on another thread
        await gate;
        return "after suppressed await: " + Now + ", flow suppressed " + ExecutionContext.IsFlowSuppressed();
    }

    // The suppressing method is awaited directly: its context scope gives the caller's context back
    // while the chain unwinds, so the flow is no longer suppressed where the chain registers.
    static async Task<string> CallsOneThatSuppresses(Task gate) => "caller of it: " + await AwaitsWithFlowSuppressed(gate);

    static async Task<string> AwaitsTwice(Task first, Task second)
    {
        Value.Value = "first";
        await first;
        string seen = Now;
        Value.Value = "second";
        await second;
        return "after two awaits: " + seen + ", " + Now;
    }

    // The first await registers the chain's root in the builder's box; the second, with the flow
    // suppressed, makes that root hand the chain over to a root object, which resumes it twice more.
    static async Task<string> SuppressesAfterItsFirstAwait(Task first, Task second, Task third)
    {
        Value.Value = "first";
        await first;
        string seen = Now;
        Value.Value = "second";
        ExecutionContext.SuppressFlow(); // not undone here, as above
        await second;
        string suppressed = Now + " " + ExecutionContext.IsFlowSuppressed();
        Value.Value = "third";
        await third;
        return $"after suppressing: {seen}; {suppressed}; {Now}";
    }

    static void Main()
    {
        foreach (var run in new Func<Task, Task<string>>[] { AwaitsWithItsOwnValue, AwaitsWithFlowSuppressed, CallsOneThatSuppresses })
        {
            Value.Value = "caller";
            var gate = new TaskCompletionSource();
            var result = run(gate.Task);
            Console.WriteLine($"caller before completing: {Now}, flow suppressed {ExecutionContext.IsFlowSuppressed()}");
            Value.Value = "completer";
            gate.SetResult(); // continuations run inline, on this thread
            Console.WriteLine(result.Result);
            Console.WriteLine("caller after: " + Now);
        }

        Value.Value = "caller";
        var one = new TaskCompletionSource();
        var two = new TaskCompletionSource();
        var both = AwaitsTwice(one.Task, two.Task);
        Value.Value = "completer";
        one.SetResult();
        two.SetResult();
        Console.WriteLine(both.Result);

        Value.Value = "caller";
        var gates = new[] { new TaskCompletionSource(), new TaskCompletionSource(), new TaskCompletionSource() };
        var suppressing = SuppressesAfterItsFirstAwait(gates[0].Task, gates[1].Task, gates[2].Task);
        for (int i = 0; i < gates.Length; i++)
        {
            Value.Value = "completer " + (i + 1);
            gates[i].SetResult();
            // Not printed after the second gate: classic async leaves the AsyncLocal value the
            // method set after that await ("third") on this thread, Async2 puts the thread's own
            // back (docs/design.md, "Where it differs from classic async today").
            Console.WriteLine($"completed gate {i + 1}: flow suppressed {ExecutionContext.IsFlowSuppressed()}");
        }
        Console.WriteLine(suppressing.Result);
        Console.WriteLine("caller after: " + Now);

        // Completed from the thread pool: the continuation runs there, in the method's context.
        Value.Value = "caller";
        var pooled = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var awaited = AwaitsWithItsOwnValue(pooled.Task);
        ThreadPool.QueueUserWorkItem(_ => { Value.Value = "pool"; pooled.SetResult(); });
        Console.WriteLine(awaited.Result);
    }
}
