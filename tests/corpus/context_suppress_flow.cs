// ExecutionContext capture and flow control inside rewritten methods: work queued while flow is
// suppressed does not see the method's AsyncLocal values, flow restored afterwards does; a context
// captured in one method and run later from another shows the captured values; ExecutionContext.Run
// does not leak the captured values back; suppression undone before the method awaits.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static readonly AsyncLocal<string?> Value = new AsyncLocal<string?>();
    static ExecutionContext? captured;

    static string Now => Value.Value ?? "null";

    static Task<string> Queue()
    {
        var source = new TaskCompletionSource<string>();
        ThreadPool.QueueUserWorkItem(_ => source.SetResult("queued work saw " + Now));
        return source.Task;
    }

    static async Task<string> Suppressing()
    {
        Value.Value = "suppressing";
        if (Suspend) await Task.Yield();
        Task<string> hidden;
        using (ExecutionContext.SuppressFlow())
            hidden = Queue();
        string s = await hidden;
        s += "; flow suppressed after: " + ExecutionContext.IsFlowSuppressed().ToString().ToLowerInvariant();
        s += "; " + await Queue();
        return s;
    }

    static async Task Capture()
    {
        Value.Value = "captured";
        if (Suspend) await Task.Yield();
        captured = ExecutionContext.Capture();
        Value.Value = "changed after capture";
    }

    static async Task<string> RunCaptured()
    {
        Value.Value = "runner";
        if (Suspend) await Task.Yield();
        string inside = "";
        ExecutionContext.Run(captured!, _ => inside = Now, null);
        if (Suspend) await Task.Yield();
        return "inside Run " + inside + ", after Run " + Now;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Value.Value = "main";
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Suppressing());
            await Capture();
            Console.WriteLine("main after capture " + Now);
            Console.WriteLine(await RunCaptured());
            Console.WriteLine("main at end " + Now);
        }
    }
}
