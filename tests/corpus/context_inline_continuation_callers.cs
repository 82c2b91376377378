// A callee whose await is resumed at once, inside the registration (an awaiter that calls the
// continuation from OnCompleted, Task.Yield under a SynchronizationContext whose Post runs the
// callback, or under a TaskScheduler that runs the task as it is queued), completes before its
// callers await it: classic async's callers then go on in their own contexts, not in what the
// callee set after resuming, also those that awaited with the flow suppressed.
using System;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static readonly AsyncLocal<string?> Value = new();

    static string State() =>
        $"value={Value.Value ?? "-"} suppressed={ExecutionContext.IsFlowSuppressed()} culture={CultureInfo.CurrentCulture.Name}";

    static async Task<int> Leaf(string kind, bool setsBefore, bool throws)
    {
        if (setsBefore)
            Value.Value = "leaf before";
        if (kind == "awaiter")
            await new AtOnceAwaiter();
        else
            await Task.Yield();
        Value.Value = "leaf";
        CultureInfo.CurrentCulture = new CultureInfo("fr-FR");
        Console.WriteLine($"  leaf after resuming: {State()}");
        if (throws)
            throw new InvalidOperationException("thrown by leaf");
        return 1;
    }

    static async Task<int> Middle(string kind, bool setsBefore, bool throws)
    {
        int result = await Leaf(kind, setsBefore, throws);
        Console.WriteLine($"  middle after its await: {State()}");
        return result;
    }

    static async Task<int> Outer(string kind, bool suppress, bool middle, bool setsBefore, bool throws)
    {
        Value.Value = "outer";
        if (suppress)
            ExecutionContext.SuppressFlow();
        try
        {
            int result = middle ? await Middle(kind, setsBefore, throws) : await Leaf(kind, setsBefore, throws);
            Console.WriteLine($"  outer after its await: {State()}");
            return result;
        }
        catch (Exception e) when (Filter())
        {
            Console.WriteLine($"  outer caught '{e.Message}': {State()}");
            return 0;
        }
    }

    static bool Filter()
    {
        Console.WriteLine($"  outer's filter: {State()}");
        return true;
    }

    static void Main()
    {
        foreach (var kind in new[] { "awaiter", "post", "scheduler" })
            foreach (var suppress in new[] { false, true })
                foreach (var middle in new[] { false, true })
                    // A leaf that set a value before its await under a suppressed flow is left out: docs/design.md, "Stack and threads, at the edges".
                    foreach (var setsBefore in suppress ? new[] { false } : new[] { false, true })
                        foreach (var throws in new[] { false, true })
                        {
                            Console.WriteLine($"{kind}: suppressed={suppress} middle={middle} leaf sets before={setsBefore} throws={throws}");
                            Value.Value = "main";
                            CultureInfo.CurrentCulture = new CultureInfo("en-US");
                            Task<int> task;
                            if (kind == "scheduler")
                            {
                                task = Task.Factory.StartNew(() => Outer(kind, suppress, middle, setsBefore, throws),
                                    CancellationToken.None, TaskCreationOptions.None, new AtOnceScheduler()).Unwrap();
                            }
                            else
                            {
                                var previous = SynchronizationContext.Current;
                                if (kind == "post")
                                    SynchronizationContext.SetSynchronizationContext(new AtOncePostContext());
                                task = Outer(kind, suppress, middle, setsBefore, throws);
                                SynchronizationContext.SetSynchronizationContext(previous);
                            }
                            if (ExecutionContext.IsFlowSuppressed())
                                ExecutionContext.RestoreFlow();
                            Console.WriteLine($"  main: {task.Status} result={task.Result}");
                        }
    }
}
