// The flow is suppressed, and a leaf's Task.Yield runs under a TaskScheduler that runs each task as
// it is queued: the leaf resumes at once, inside the await, and so does its caller, which awaited
// under that scheduler and is handed back to it. Classic async completes the whole chain before the
// outermost method awaits it: each method's changes after its await are undone when it returns,
// and the outermost method sees its own values. It also holds with an awaiter that calls the
// continuation from UnsafeOnCompleted.
using System;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static readonly AsyncLocal<string?> Value = new();

    static string State() => $"value={Value.Value ?? "-"} culture={CultureInfo.CurrentCulture.Name}";

    static async Task Leaf(bool awaiter)
    {
        if (awaiter)
            await new AtOnceAwaiter();
        else
            await Task.Yield();
        Value.Value = "leaf";
    }

    static async Task Setter(bool awaiter, bool throws)
    {
        await Leaf(awaiter);
        Console.WriteLine($"  setter after its await: {State()}");
        Value.Value = "setter";
        CultureInfo.CurrentCulture = new CultureInfo("fr-FR");
        if (throws)
            throw new InvalidOperationException("thrown by the setter");
    }

    static async Task Outer(bool awaiter, bool throws)
    {
        Value.Value = "outer";
        CultureInfo.CurrentCulture = new CultureInfo("en-US");
        ExecutionContext.SuppressFlow();
        try
        {
            await Setter(awaiter, throws);
            Console.WriteLine($"  outer after its await: {State()}");
        }
        catch (InvalidOperationException e)
        {
            Console.WriteLine($"  outer caught '{e.Message}': {State()}");
        }
    }

    static void Main()
    {
        foreach (var awaiter in new[] { false, true })
            foreach (var throws in new[] { false, true })
            {
                Console.WriteLine($"{(awaiter ? "an awaiter calling the continuation" : "Task.Yield under the scheduler")}, setter throws: {throws}");
                var task = Task.Factory.StartNew(() => Outer(awaiter, throws), CancellationToken.None, TaskCreationOptions.None, new AtOnceScheduler()).Unwrap();
                Console.WriteLine($"  completed at once: {task.IsCompleted}");
                task.GetAwaiter().GetResult();
            }
    }
}
