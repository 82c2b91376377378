// Callers linked before a callee's await that is resumed at once, inside the registration (an
// awaiter that calls the continuation from OnCompleted, Task.Yield under a SynchronizationContext
// whose Post runs the callback, or under a TaskScheduler that runs the task as it is queued):
// - when the callee had suspended before and its callers awaited it then, they are continuations
//   of its Task in classic async and go on in what it leaves, also in the values it set after
//   resuming when they awaited with the flow suppressed;
// - the callees it awaits that suspend there first complete before it awaits them, and it goes on
//   in its own contexts;
// - a frame resumed inside a registration that suspends again inside it, nested, leaves the callers
//   of the first registration in their own contexts, since they too find their callees complete.
using System;
using System.Threading;
using System.Threading.Tasks;

sealed class InstalledContext : SynchronizationContext
{
}

static class Program
{
    static readonly AsyncLocal<string?> Value = new();
    static TaskCompletionSource Gate = new();
    static int startingThread;

    static string State() =>
        $"value={Value.Value ?? "-"} context={SynchronizationContext.Current?.GetType().Name ?? "-"} on the starting thread={Environment.CurrentManagedThreadId == startingThread}";

    // Under a context whose Post runs the callback at once when the caller installed one.
    static async Task AwaitInline(string kind)
    {
        if (kind == "awaiter")
            await new AtOnceAwaiter();
        else
            await Task.Yield();
    }

    // Suspends on the gate (its callers await it), then again at an await resumed at once. A callee
    // that installs a context or sets a value before such an await is left out: docs/design.md,
    // "Stack and threads, at the edges".
    static async Task<int> Leaf(string kind, bool newCallee, bool installs, bool throws)
    {
        await Gate.Task;
        if (kind == "post")
            SynchronizationContext.SetSynchronizationContext(new AtOncePostContext());
        if (newCallee)
            await Callee(kind);
        else
            await AwaitInline(kind);
        Value.Value = "leaf";
        SynchronizationContext.SetSynchronizationContext(installs ? new InstalledContext() : null);
        Console.WriteLine($"  leaf after resuming: {State()}");
        if (throws)
            throw new InvalidOperationException("thrown by leaf");
        return 1;
    }

    static async Task Callee(string kind)
    {
        await AwaitInline(kind);
        Value.Value = "callee";
        Console.WriteLine($"  callee after resuming: {State()}");
    }

    static async Task<int> Middle(string kind, bool newCallee, bool installs, bool throws)
    {
        try
        {
            int result = await Leaf(kind, newCallee, installs, throws);
            Console.WriteLine($"  middle after its await: {State()}");
            return result;
        }
        catch (InvalidOperationException)
        {
            Console.WriteLine($"  middle caught: {State()}");
            throw;
        }
    }

    static async Task Outer(string kind, bool suppress, bool newCallee, bool installs, bool throws)
    {
        Value.Value = "outer";
        if (suppress)
            ExecutionContext.SuppressFlow();
        try
        {
            await Middle(kind, newCallee, installs, throws);
            Console.WriteLine($"  outer after its await: {State()}");
        }
        catch (Exception e) when (Filter())
        {
            Console.WriteLine($"  outer caught '{e.Message}': {State()}");
        }
    }

    static bool Filter()
    {
        Console.WriteLine($"  outer's filter: {State()}");
        return true;
    }

    static void Resuspension(string kind, bool suppress, bool newCallee, bool installs, bool throws)
    {
        Console.WriteLine($"{kind}, suspended before: suppressed={suppress} new callee={newCallee} installs a context={installs} throws={throws}");
        Gate = new TaskCompletionSource();
        Task task = null!;
        var starter = new Thread(() =>
        {
            startingThread = Environment.CurrentManagedThreadId;
            task = Outer(kind, suppress, newCallee, installs, throws);
            Gate.SetResult();
        });
        starter.Start();
        starter.Join();
        task.Wait();
    }

    // The first registration's callback resumes Leaf, then Middle suspends again inside it.
    static async Task<int> NestedLeaf(string kind)
    {
        await AwaitInline(kind);
        return 1;
    }

    static async Task<int> NestedMiddle(string kind)
    {
        int result = await NestedLeaf(kind);
        await AwaitInline(kind);
        return result;
    }

    static async Task<int> Setter(string kind)
    {
        int result = await NestedMiddle(kind);
        Value.Value = "setter";
        Console.WriteLine($"  setter after its await: {State()}");
        return result;
    }

    static async Task<int> NestedOuter(string kind)
    {
        Value.Value = "outer";
        ExecutionContext.SuppressFlow();
        int result = await Setter(kind);
        Console.WriteLine($"  outer after its await: {State()}");
        return result;
    }

    static void Nested(string kind)
    {
        Console.WriteLine($"{kind}, suspended again inside the first registration");
        startingThread = Environment.CurrentManagedThreadId;
        Value.Value = null;
        Task<int> task;
        if (kind == "scheduler")
        {
            task = Task.Factory.StartNew(() => NestedOuter(kind), CancellationToken.None, TaskCreationOptions.None, new AtOnceScheduler()).Unwrap();
        }
        else
        {
            if (kind == "post")
                SynchronizationContext.SetSynchronizationContext(new AtOncePostContext());
            task = NestedOuter(kind);
            SynchronizationContext.SetSynchronizationContext(null);
        }
        if (ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        Console.WriteLine($"  main: {task.Status} result={task.Result}");
    }

    static void Main()
    {
        foreach (var kind in new[] { "awaiter", "post" })
            foreach (var suppress in new[] { false, true })
                foreach (var newCallee in new[] { false, true })
                    foreach (var installs in new[] { false, true })
                        foreach (var throws in new[] { false, true })
                            Resuspension(kind, suppress, newCallee, installs, throws);
        foreach (var kind in new[] { "awaiter", "post", "scheduler" })
            Nested(kind);
    }
}
