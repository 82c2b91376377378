// Context scopes entered with and without the ExecutionContext's flow suppressed, in one suspending
// chain: a callee that suppresses the flow itself before it awaits, a method that restores a
// suppressed flow and sets an AsyncLocal over callees that do or do not, frames without a scope in
// between, ConfigureAwait(false), a callee completing without suspending first, a ValueTask method.
// The caller must get back its own values and flow state after the call, whatever the chain left,
// and each method must resume where classic async resumes it. Deterministic: the innermost await is
// a gate the caller opens after printing.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static readonly AsyncLocal<string> Value = new();
    static TaskCompletionSource Gate = new();
    static string Show() => $"value={Value.Value ?? "-"} suppressed={ExecutionContext.IsFlowSuppressed()}";

    static async Task InnerSuppressing(string name)
    {
        Value.Value = name;
        ExecutionContext.SuppressFlow();
        await Gate.Task;
        Console.WriteLine($"  {name} resumed: {Show()}");
    }

    static async Task InnerPlain(string name, bool configure)
    {
        Value.Value = name;
        await Gate.Task.ConfigureAwait(configure);
        Console.WriteLine($"  {name} resumed: {Show()}");
    }

    static async Task InnerSync(string name)
    {
        Value.Value = name;
        await Task.CompletedTask;
    }

    static async Task Middle(Func<Task> inner) => await inner();

    static async Task OuterRestoring(Func<Task> inner, bool twice)
    {
        if (ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        Value.Value = "outer";
        if (twice)
            await InnerSync("sync");
        Console.WriteLine($"  outer before: {Show()}");
        await inner();
        Console.WriteLine($"  outer resumed: {Show()}");
    }

    static async ValueTask OuterValueTask(Func<Task> inner)
    {
        if (ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        Value.Value = "outer-vt";
        await inner();
        Console.WriteLine($"  outer-vt resumed: {Show()}");
    }

    static async Task Top(Func<Task> body) => await body();

    static void Run(string label, bool suppress, Func<Task> start)
    {
        Value.Value = "main";
        Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        AsyncFlowControl control = default;
        if (suppress)
            control = ExecutionContext.SuppressFlow();
        var task = start();
        Console.WriteLine($"{label}: after the call {Show()}");
        if (suppress && ExecutionContext.IsFlowSuppressed())
            control.Undo();
        else if (ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        Gate.SetResult();
        task.Wait();
        Console.WriteLine($"{label}: done {Show()}");
    }

    static void Main()
    {
        foreach (var suppress in new[] { false, true })
        {
            Run($"S1 inner suppresses, direct (s={suppress})", suppress, () => Top(() => InnerSuppressing("inner")));
            Run($"S1b inner suppresses under outer (s={suppress})", suppress, () => Top(() => OuterRestoring(() => InnerSuppressing("inner"), false)));
            Run($"S2 middle without scope (s={suppress})", suppress, () => Top(() => OuterRestoring(() => Middle(() => InnerPlain("inner", true)), false)));
            Run($"S3 configure false (s={suppress})", suppress, () => Top(() => OuterRestoring(() => InnerPlain("inner", false), false)));
            Run($"S5 sync first (s={suppress})", suppress, () => Top(() => OuterRestoring(() => InnerPlain("inner", true), true)));
            Run($"S6 valuetask outer (s={suppress})", suppress, () => Top(() => OuterValueTask(() => InnerPlain("inner", true)).AsTask()));
            Run($"S7 middle over suppressing (s={suppress})", suppress, () => Top(() => Middle(() => OuterRestoring(() => Middle(() => InnerSuppressing("inner")), true))));
        }
    }
}
