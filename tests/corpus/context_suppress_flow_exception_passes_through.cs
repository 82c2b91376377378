// An exception thrown after a suspension passes through frames that cannot catch it, each of
// which classic async resumes in the ExecutionContext its await captured, only to rethrow. A frame
// that captured none (its flow was suppressed when it awaited) then catches in the context the
// frame below it rethrew in, and a Task completed by such a frame completes in it too: not in the
// context of the method that threw. Each scenario opens its own gate only after printing.
using System;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static readonly AsyncLocal<string?> Value = new();
    static TaskCompletionSource Gate = new();

    static string State() =>
        $"value={Value.Value ?? "-"} suppressed={ExecutionContext.IsFlowSuppressed()} culture={CultureInfo.CurrentCulture.Name}";

    static async Task Throws(string value)
    {
        Value.Value = value;
        CultureInfo.CurrentCulture = new CultureInfo("fr-FR");
        await Gate.Task;
        throw new InvalidOperationException("thrown by " + value);
    }

    static async Task ThrowsSuppressed()
    {
        ExecutionContext.SuppressFlow();
        await Gate.Task;
        throw new InvalidOperationException("thrown with the flow suppressed");
    }

    static async Task RestoresThenAwaits(string? value)
    {
        if (ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        if (value is not null)
            Value.Value = value;
        await Throws("leaf");
    }

    static async Task RestoresThenAwaitsSuppressed()
    {
        if (ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        Value.Value = "between";
        await ThrowsSuppressed();
    }

    static async Task RestoresThenAwaitsTwoDeep()
    {
        if (ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        Value.Value = "between";
        await PassesOn();
    }

    static async Task PassesOn() => await Throws("leaf");

    static async ValueTask RestoresThenAwaitsValueTask()
    {
        if (ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        await ThrowsValueTask();
    }

    static async ValueTask ThrowsValueTask()
    {
        Value.Value = "leaf";
        await Gate.Task;
        throw new InvalidOperationException("thrown by a ValueTask");
    }

    static async Task Catches(Func<Task> callee, string name)
    {
        try
        {
            await callee();
            Console.WriteLine($"  {name}: no exception");
        }
        catch (InvalidOperationException e)
        {
            Console.WriteLine($"  {name} caught '{e.Message}': {State()}");
        }
    }

    static async Task CatchesDirectly()
    {
        try { await RestoresThenAwaits(null); }
        catch (InvalidOperationException e) { Console.WriteLine($"  caught '{e.Message}': {State()}"); }
    }

    static async Task CatchesConfigured()
    {
        try { await RestoresThenAwaits("between").ConfigureAwait(false); }
        catch (InvalidOperationException e) { Console.WriteLine($"  caught '{e.Message}': {State()}"); }
    }

    static async Task CatchesTwoDeep()
    {
        try { await RestoresThenAwaitsTwoDeep(); }
        catch (InvalidOperationException e) { Console.WriteLine($"  caught '{e.Message}': {State()}"); }
    }

    static async Task CatchesValueTask()
    {
        try { await RestoresThenAwaitsValueTask(); }
        catch (InvalidOperationException e) { Console.WriteLine($"  caught '{e.Message}': {State()}"); }
    }

    static async Task CatchesSuppressedLeaf()
    {
        try { await RestoresThenAwaitsSuppressed(); }
        catch (InvalidOperationException e) { Console.WriteLine($"  caught '{e.Message}': {State()}"); }
    }

    static async Task CatchesStoredTask()
    {
        try
        {
            var task = RestoresThenAwaits("between");
            await task;
        }
        catch (InvalidOperationException e) { Console.WriteLine($"  caught '{e.Message}': {State()}"); }
    }

    static async Task OuterOfSelfSuppressing()
    {
        Value.Value = "outer";
        await SuppressesThenCatches();
        Console.WriteLine($"  outer resumed: {State()}");
    }

    static async Task SuppressesThenCatches()
    {
        ExecutionContext.SuppressFlow();
        try { await RestoresThenAwaits(null); }
        catch (InvalidOperationException e) { Console.WriteLine($"  caught '{e.Message}': {State()}"); }
    }

    static async Task NoHandler() => await RestoresThenAwaits("between");

    static void Scenario(string name, Func<Task> start, bool suppress = true)
    {
        Console.WriteLine(name);
        Value.Value = "main";
        CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
        Gate = new TaskCompletionSource();
        if (suppress)
            ExecutionContext.SuppressFlow();
        var task = start();
        // Registered with the flow suppressed, the Task's continuation captures no context either,
        // and runs in the one the Task completed in.
        var seen = task.ContinueWith(t => $"{t.Status}: {State()}", TaskContinuationOptions.ExecuteSynchronously);
        if (ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        Console.WriteLine($"  after the call: {State()}");
        Gate.SetResult();
        Console.WriteLine($"  the Task completed {seen.Result}");
        Console.WriteLine($"  after the wait: {State()}");
    }

    static void Main()
    {
        Scenario("caller suppressed, frame between restores the flow", CatchesDirectly);
        Scenario("awaited with ConfigureAwait(false)", CatchesConfigured);
        Scenario("two frames between", CatchesTwoDeep);
        Scenario("ValueTask frames", CatchesValueTask);
        Scenario("the throwing method suppresses the flow", CatchesSuppressedLeaf);
        Scenario("the Task stored, then awaited", CatchesStoredTask);
        Scenario("the catching method suppresses the flow itself", OuterOfSelfSuppressing, suppress: false);
        Scenario("no handler: the Task faults", NoHandler);
        Scenario("through a delegate", () => Catches(() => RestoresThenAwaits("between"), "delegate"));
        Scenario("flow not suppressed", CatchesDirectly, suppress: false);
    }
}
