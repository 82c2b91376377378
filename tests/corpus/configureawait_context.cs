// ConfigureAwait(true/false) observed through a single-threaded SynchronizationContext: after a
// pending await with true the method continues on the context, with false it leaves it; a caller
// that awaits (default true) a callee that left the context with ConfigureAwait(false) is back on
// the context; Task, Task<T>, ValueTask and ValueTask<T> forms; awaits released from another thread.
using System;
using System.Collections.Concurrent;
using System.Threading;
using System.Threading.Tasks;

sealed class PumpContext : SynchronizationContext
{
    private readonly BlockingCollection<(SendOrPostCallback, object?)> queue = new();
    public static Thread? PumpThread;

    public override void Post(SendOrPostCallback d, object? state) => queue.Add((d, state));

    public override void Send(SendOrPostCallback d, object? state) => throw new NotSupportedException();

    public static void Run(Func<Task> body)
    {
        var previous = Current;
        var context = new PumpContext();
        SetSynchronizationContext(context);
        PumpThread = Thread.CurrentThread;
        try
        {
            var task = body();
            task.ContinueWith(_ => context.queue.CompleteAdding(), TaskScheduler.Default);
            foreach (var (callback, state) in context.queue.GetConsumingEnumerable())
                callback(state);
            task.GetAwaiter().GetResult();
        }
        finally
        {
            SetSynchronizationContext(previous);
        }
    }
}

static class Program
{
    static bool Suspend;

    static string Where() =>
        (SynchronizationContext.Current is PumpContext ? "ctx" : "noctx") + "/" + (Thread.CurrentThread == PumpContext.PumpThread ? "pump" : "other");

    /// <summary>
    /// A task that completes on a thread-pool thread (or at once when not suspending). It is released
    /// through the pump queue, so never before the method that took it has suspended on it; taken on
    /// another thread it is released at once, where either order gives the same output.
    /// </summary>
    sealed class Gate
    {
        private readonly TaskCompletionSource<int> source = new();

        public Task<int> Task
        {
            get
            {
                if (!Suspend)
                    return System.Threading.Tasks.Task.FromResult(7);
                WaitCallback release = _ => source.SetResult(7);
                if (SynchronizationContext.Current is PumpContext pump)
                    pump.Post(_ => ThreadPool.QueueUserWorkItem(release), null);
                else
                    ThreadPool.QueueUserWorkItem(release);
                return source.Task;
            }
        }
    }

    static async Task<string> TaskForms(Gate g1, Gate g2, Gate g3)
    {
        string s = "start " + Where();
        await ((Task)g1.Task).ConfigureAwait(true);
        s += " | true " + Where();
        int v = await g2.Task.ConfigureAwait(false);
        s += " | false " + Where() + " " + v;
        await g3.Task.ConfigureAwait(true);
        s += " | true-after-false " + Where();
        return s;
    }

    static async Task<string> ValueTaskForms(Gate g1, Gate g2)
    {
        string s = "start " + Where();
        await new ValueTask((Task)g1.Task).ConfigureAwait(true);
        s += " | vt-true " + Where();
        int v = await new ValueTask<int>(g2.Task).ConfigureAwait(false);
        s += " | vt-false " + Where() + " " + v;
        return s;
    }

    static async Task<int> LeavesContext(Gate gate)
    {
        int v = await gate.Task.ConfigureAwait(false);
        return v + (SynchronizationContext.Current is null ? 100 : 200);
    }

    static async ValueTask<int> VLeavesContext(Gate gate)
    {
        await ((Task)gate.Task).ConfigureAwait(false);
        return SynchronizationContext.Current is null ? 1 : 2;
    }

    static async Task<string> CallerReturns(Gate g1, Gate g2)
    {
        int v = await LeavesContext(g1);
        string s = "after callee " + Where() + " " + v;
        int w = await VLeavesContext(g2);
        s += " | after vcallee " + Where() + " " + w;
        return s;
    }

    static async Task<string> CallerLeavesToo(Gate g1)
    {
        int v = await LeavesContext(g1).ConfigureAwait(false);
        return "after callee with false " + Where() + " " + v;
    }

    static async Task Scenarios()
    {
        var gates = new[] { new Gate(), new Gate(), new Gate() };
        var t1 = TaskForms(gates[0], gates[1], gates[2]);
        Console.WriteLine("TaskForms: " + await t1);
        Console.WriteLine("back in driver " + Where());

        gates = new[] { new Gate(), new Gate() };
        var t2 = ValueTaskForms(gates[0], gates[1]);
        Console.WriteLine("ValueTaskForms: " + await t2);

        gates = new[] { new Gate(), new Gate() };
        var t3 = CallerReturns(gates[0], gates[1]);
        Console.WriteLine("CallerReturns: " + await t3);

        var gate = new Gate();
        var t4 = CallerLeavesToo(gate);
        Console.WriteLine("CallerLeavesToo: " + await t4);
        Console.WriteLine("end of scenarios " + Where());
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            PumpContext.Run(Scenarios);
        }
    }
}
