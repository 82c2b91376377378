// A SynchronizationContext's Post, called to send a caller back to the context it awaited in, runs
// where the callee completed: in classic async inside the callee's completion, so in the
// ExecutionContext the callee ended with (the AsyncLocal values and culture it set after resuming).
// The context records what Post sees; output is printed once the chain completed.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;

sealed class RecordingContext : SynchronizationContext
{
    public readonly List<string> Seen = new();
    public override void Post(SendOrPostCallback d, object? state)
    {
        lock (Seen)
            Seen.Add($"Post sees value={Program.Value.Value ?? "-"} culture={CultureInfo.CurrentCulture.Name}");
        ThreadPool.UnsafeQueueUserWorkItem(_ =>
        {
            var previous = Current;
            SetSynchronizationContext(this);
            try { d(state); }
            finally { SetSynchronizationContext(previous); }
        }, null);
    }
}

static class Program
{
    public static readonly AsyncLocal<string?> Value = new();
    static TaskCompletionSource Gate = new();

    static async Task Callee(bool leaveContext, bool throws)
    {
        if (leaveContext)
            await Gate.Task.ConfigureAwait(false);
        else
            await Gate.Task;
        Value.Value = "callee";
        CultureInfo.CurrentCulture = new CultureInfo("fr-FR");
        if (throws)
            throw new InvalidOperationException("thrown by the callee");
    }

    static async Task<string> Caller(RecordingContext context, bool leaveContext, bool throws)
    {
        SynchronizationContext.SetSynchronizationContext(context);
        Value.Value = "caller";
        try
        {
            await Callee(leaveContext, throws);
            return $"caller after the await: value={Value.Value} culture={CultureInfo.CurrentCulture.Name}";
        }
        catch (InvalidOperationException)
        {
            return $"caller caught: value={Value.Value} culture={CultureInfo.CurrentCulture.Name}";
        }
    }

    static void Main()
    {
        foreach (var leaveContext in new[] { true, false })
            foreach (var throws in new[] { false, true })
            {
                Console.WriteLine($"callee leaves the context: {leaveContext}, throws: {throws}");
                Gate = new TaskCompletionSource();
                CultureInfo.CurrentCulture = new CultureInfo("en-US");
                var context = new RecordingContext();
                var task = Caller(context, leaveContext, throws);
                SynchronizationContext.SetSynchronizationContext(null);
                Value.Value = null;
                var opener = new Thread(() => Gate.SetResult());
                opener.Start();
                opener.Join();
                var result = task.GetAwaiter().GetResult();
                lock (context.Seen)
                    foreach (var line in context.Seen)
                        Console.WriteLine("  " + line);
                Console.WriteLine("  " + result);
            }
    }
}
