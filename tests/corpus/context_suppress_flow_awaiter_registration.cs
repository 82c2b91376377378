// What an awaiter sees when it is given the continuation (OnCompleted, UnsafeOnCompleted), in a
// chain called while the caller suppressed the ExecutionContext's flow: the awaiting method's
// AsyncLocal values and flow state, as classic async registers inside that method. Async2 unwinds
// the chain first and registers at its root: it registered in the outermost caller's values with
// the flow suppressed, where the awaiting method had restored the flow, or a method between had
// set a value. Each awaiter's continuation is called by the caller after it printed.
using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class Safe : INotifyCompletion
{
    public Action? Continuation;
    public Safe GetAwaiter() => this;
    public bool IsCompleted => false;
    public void OnCompleted(Action continuation) { Console.WriteLine($"  OnCompleted sees {Program.Show()}"); Continuation = continuation; }
    public void GetResult() { }
}

sealed class Critical : ICriticalNotifyCompletion
{
    public Action? Continuation;
    public Critical GetAwaiter() => this;
    public bool IsCompleted => false;
    public void OnCompleted(Action continuation) { Console.WriteLine($"  OnCompleted sees {Program.Show()}"); Continuation = continuation; }
    public void UnsafeOnCompleted(Action continuation) { Console.WriteLine($"  UnsafeOnCompleted sees {Program.Show()}"); Continuation = continuation; }
    public void GetResult() { }
}

static class Program
{
    public static readonly AsyncLocal<string> Value = new();
    static Safe SafeAwaitable = new();
    static Critical CriticalAwaitable = new();
    public static string Show() => $"value={Value.Value ?? "-"} suppressed={ExecutionContext.IsFlowSuppressed()}";

    // Each method awaits the next directly, as a chain of rewritten methods does.
    static async Task RestoresThenAwaits(bool critical)
    {
        if (ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        if (critical)
            await CriticalAwaitable;
        else
            await SafeAwaitable;
        Console.WriteLine($"  awaiting method resumed {Show()}");
    }

    static async Task Awaits(bool critical)
    {
        if (critical)
            await CriticalAwaitable;
        else
            await SafeAwaitable;
        Console.WriteLine($"  awaiting method resumed {Show()}");
    }

    static async Task CallerOfRestoring(bool critical)
    {
        await RestoresThenAwaits(critical);
        Console.WriteLine($"  caller resumed {Show()}");
    }

    static async Task ValueOverRestoring(bool critical)
    {
        Value.Value = "outer";
        await RestoresThenAwaits(critical);
        Console.WriteLine($"  outer resumed {Show()}");
    }

    static async Task ValueOverAwaiting(bool critical)
    {
        Value.Value = "middle";
        await Awaits(critical);
        Console.WriteLine($"  middle resumed {Show()}");
    }

    static async Task CallerOfValueOverAwaiting(bool critical)
    {
        await ValueOverAwaiting(critical);
        Console.WriteLine($"  caller resumed {Show()}");
    }

    static async Task ValueOverCallerOfAwaiting(bool critical)
    {
        Value.Value = "middle";
        await CallerOfAwaiting(critical);
        Console.WriteLine($"  middle resumed {Show()}");
    }

    static async Task CallerOfAwaiting(bool critical)
    {
        await Awaits(critical);
        Console.WriteLine($"  caller resumed {Show()}");
    }

    static async Task TwoValues(bool critical)
    {
        Value.Value = "outer";
        await ValueOverAwaiting(critical);
        Console.WriteLine($"  outer resumed {Show()}");
    }

    static void Run(string label, Func<Task> start)
    {
        Console.WriteLine(label);
        Value.Value = "main";
        SafeAwaitable = new Safe();
        CriticalAwaitable = new Critical();
        var control = ExecutionContext.SuppressFlow();
        var task = start();
        Console.WriteLine($"  after the call {Show()}");
        if (ExecutionContext.IsFlowSuppressed())
            control.Undo();
        (SafeAwaitable.Continuation ?? CriticalAwaitable.Continuation)!();
        task.Wait();
        Console.WriteLine($"  done {Show()}");
    }

    static void Main()
    {
        foreach (var critical in new[] { false, true })
        {
            Run($"restores the flow, alone (critical={critical})", () => RestoresThenAwaits(critical));
            Run($"restores the flow, under a caller (critical={critical})", () => CallerOfRestoring(critical));
            Run($"restores the flow, under a value (critical={critical})", () => ValueOverRestoring(critical));
            Run($"value above the awaiting method (critical={critical})", () => ValueOverAwaiting(critical));
            Run($"value above, under a caller (critical={critical})", () => CallerOfValueOverAwaiting(critical));
            Run($"value two above (critical={critical})", () => ValueOverCallerOfAwaiting(critical));
            Run($"two values (critical={critical})", () => TwoValues(critical));
        }
    }
}
