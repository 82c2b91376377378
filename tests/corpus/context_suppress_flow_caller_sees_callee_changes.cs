// A caller that awaited with the ExecutionContext's flow suppressed captured no context, so classic
// async continues it in whatever context its callee's continuation left: it sees the AsyncLocal
// values and the culture its callee set after resuming, in its code after the await, in its
// exception filter and in its catch. So does a continuation registered without a context on the
// Task of a method that changed them after resuming. A caller that captured a context sees its own.
// Each scenario opens its gates from a thread of its own once Main has started it.
using System;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static readonly AsyncLocal<string?> Value = new();
    static TaskCompletionSource Gate = new();
    static TaskCompletionSource SecondGate = new();

    static string State() =>
        $"value={Value.Value ?? "-"} culture={CultureInfo.CurrentCulture.Name}";

    static void SetAfterResuming(string value)
    {
        Value.Value = value;
        CultureInfo.CurrentCulture = new CultureInfo("fr-FR");
    }

    static async Task Leaf(bool restoresFlow, bool throws)
    {
        if (restoresFlow && ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        await Gate.Task;
        SetAfterResuming("leaf");
        if (throws)
            throw new InvalidOperationException("thrown by leaf");
    }

    static async ValueTask<int> ValueLeaf()
    {
        ExecutionContext.RestoreFlow();
        await Gate.Task;
        SetAfterResuming("value-leaf");
        return 1;
    }

    static async Task LeafThatAwaitsAgain()
    {
        ExecutionContext.RestoreFlow();
        await Gate.Task;
        SetAfterResuming("leaf-before-second-await");
        await SecondGate.Task;
    }

    static async Task Middle()
    {
        await Leaf(restoresFlow: true, throws: false);
        Console.WriteLine($"  middle after its await: {State()}");
    }

    static async Task SuppressingCaller(string scenario, Func<Task> callee)
    {
        ExecutionContext.SuppressFlow();
        try
        {
            await callee();
            Console.WriteLine($"  caller after the await: {State()}");
        }
        catch (Exception e) when (Filter(e))
        {
            Console.WriteLine($"  caller caught '{e.Message}': {State()}");
        }
    }

    static bool Filter(Exception e)
    {
        Console.WriteLine($"  caller's filter: {State()}");
        return true;
    }

    static async Task CapturingCaller()
    {
        Value.Value = "caller";
        await Leaf(restoresFlow: false, throws: false);
        Console.WriteLine($"  capturing caller after the await: {State()}");
    }

    static async Task OuterSetsAfterResuming()
    {
        await Leaf(restoresFlow: false, throws: false);
        SetAfterResuming("outer");
    }

    // On a thread of its own: a continuation that captured no context leaves what it changed on the
    // thread that completed the gate, which is then not Main's.
    static void Open(bool second = false)
    {
        if (ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        var opener = new Thread(() =>
        {
            Gate.SetResult();
            if (second)
                SecondGate.SetResult();
        });
        opener.Start();
        opener.Join();
    }

    static void Run(string scenario, Func<Task> start, bool second = false)
    {
        Console.WriteLine(scenario);
        Value.Value = "main";
        CultureInfo.CurrentCulture = new CultureInfo("en-US");
        Gate = new TaskCompletionSource();
        SecondGate = new TaskCompletionSource();
        var task = start();
        Open(second);
        task.GetAwaiter().GetResult();
        Console.WriteLine($"  main after: {State()}");
    }

    static void Main()
    {
        foreach (var restoresFlow in new[] { false, true })
            foreach (var throws in new[] { false, true })
                Run($"callee restores the flow: {restoresFlow}, throws: {throws}",
                    () => SuppressingCaller("leaf", () => Leaf(restoresFlow, throws)));
        Run("a ValueTask callee", () => SuppressingCaller("value", async () => await ValueLeaf()));
        Run("a callee with a frame between", () => SuppressingCaller("middle", Middle));
        Run("a callee that awaits again after setting", () => SuppressingCaller("again", LeafThatAwaitsAgain), second: true);
        Run("a caller that captured its context", CapturingCaller);

        Console.WriteLine("a continuation without a context on the Task of a method that set values after resuming");
        Value.Value = "main";
        CultureInfo.CurrentCulture = new CultureInfo("en-US");
        Gate = new TaskCompletionSource();
        var outer = OuterSetsAfterResuming();
        using (ExecutionContext.SuppressFlow())
            outer.ContinueWith(_ => Console.WriteLine($"  continuation: {State()}"), TaskContinuationOptions.ExecuteSynchronously);
        Open();
        outer.GetAwaiter().GetResult();
        Console.WriteLine($"  main after: {State()}");
    }
}
