// A method entered while the caller suppressed the ExecutionContext's flow restores the flow,
// sets an AsyncLocal and awaits a callee that sets one too and suspends. Classic async's builder
// gives the caller back its own context object, flow suppressed and its own values, however the
// chain below changed them; Async2 left the caller in the method's context, flow restored and the
// method's value kept (the method's scope put back the caller's, then the callee's scope, which
// defers its restore until the chain's root has registered, put back the method's over it).
// Deterministic: the callee waits on a gate the caller opens after printing.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static readonly AsyncLocal<string> Value = new();
    static TaskCompletionSource Gate = new();

    static async Task Inner(string name)
    {
        Value.Value = name;
        await Gate.Task;
        Console.WriteLine($"  {name} resumed: value={Value.Value} suppressed={ExecutionContext.IsFlowSuppressed()}");
    }

    static async Task Outer(bool restoreFlow)
    {
        if (restoreFlow && ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        Value.Value = "outer";
        await Inner("inner");
        Console.WriteLine($"  outer resumed: value={Value.Value} suppressed={ExecutionContext.IsFlowSuppressed()}");
    }

    static async Task Top(bool restoreFlow) => await Outer(restoreFlow);

    static async Task<int> TopWithResult(bool restoreFlow)
    {
        await Outer(restoreFlow);
        return 1;
    }

    static void Run(string label, Func<bool, Task> start, bool restoreFlow)
    {
        Value.Value = "main";
        Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var control = ExecutionContext.SuppressFlow();
        var task = start(restoreFlow);
        Console.WriteLine($"{label}: after the call value={Value.Value} suppressed={ExecutionContext.IsFlowSuppressed()}");
        if (ExecutionContext.IsFlowSuppressed())
            control.Undo();
        else
            Console.WriteLine($"{label}: the flow was restored under the caller");
        Gate.SetResult();
        task.Wait();
        Console.WriteLine($"{label}: done value={Value.Value} suppressed={ExecutionContext.IsFlowSuppressed()}");
    }

    static void Main()
    {
        foreach (var restoreFlow in new[] { false, true })
        {
            Run($"Top restore={restoreFlow}", Top, restoreFlow);
            Run($"TopWithResult restore={restoreFlow}", TopWithResult, restoreFlow);
            Run($"Outer restore={restoreFlow}", Outer, restoreFlow);
        }
    }
}
