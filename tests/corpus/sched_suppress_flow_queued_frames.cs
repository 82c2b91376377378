// A method that awaited under a TaskScheduler with the ExecutionContext's flow suppressed captured
// the scheduler and no context. Its callee restored the flow and awaited with ConfigureAwait(false),
// so it finishes off the scheduler, and the method is handed back to the scheduler: classic async
// queues a Task that carries no context, which runs in the context of the thread running the
// scheduler's work, never in the callee's. Returning and throwing callees, with a frame between or
// not, under a scheduler that runs nothing inline.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class PumpedScheduler : TaskScheduler
{
    // Continuations reach it from the thread that completes the gate and from the pool's.
    private readonly BlockingCollection<Task> queue = new();
    protected override void QueueTask(Task task) => queue.Add(task);
    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => false;
    protected override IEnumerable<Task> GetScheduledTasks() => queue;

    public void RunUntil(Task task)
    {
        while (!task.IsCompleted)
        {
            if (!queue.TryTake(out var next, TimeSpan.FromSeconds(30)))
            {
                Console.WriteLine("  nothing came to run for 30 s, and the task has not completed");
                return;
            }
            TryExecuteTask(next);
        }
    }

    public void RunAll()
    {
        while (queue.TryTake(out var next))
            TryExecuteTask(next);
    }
}

static class Program
{
    static readonly AsyncLocal<string?> Value = new();
    static TaskCompletionSource Gate = new();

    static string State() => $"value={Value.Value ?? "-"} suppressed={ExecutionContext.IsFlowSuppressed()}";

    static async Task Leaf(bool fails)
    {
        await Gate.Task;
        Value.Value = "leaf";
        if (fails)
            throw new InvalidOperationException("thrown by the leaf");
    }

    static async Task Between(bool fails) => await Leaf(fails);

    static async Task Restores(bool fails, bool between)
    {
        if (ExecutionContext.IsFlowSuppressed())
            ExecutionContext.RestoreFlow();
        Value.Value = "restores";
        if (between)
            await Between(fails).ConfigureAwait(false);
        else
            await Leaf(fails).ConfigureAwait(false);
    }

    static async Task Suppresses(bool fails, bool between)
    {
        ExecutionContext.SuppressFlow();
        Value.Value = "suppresses";
        try
        {
            await Restores(fails, between);
            Console.WriteLine($"  after the await: {State()} on the scheduler={TaskScheduler.Current is PumpedScheduler}");
        }
        catch (InvalidOperationException e) when (Filter())
        {
            Console.WriteLine($"  caught '{e.Message}': {State()} on the scheduler={TaskScheduler.Current is PumpedScheduler}");
        }
    }

    static bool Filter()
    {
        Console.WriteLine($"  filter: {State()}");
        return true;
    }

    static void Scenario(bool fails, bool between)
    {
        Console.WriteLine($"fails={fails} between={between}");
        Value.Value = "main";
        Gate = new TaskCompletionSource();
        var scheduler = new PumpedScheduler();
        var task = Task.Factory.StartNew(() => Suppresses(fails, between), CancellationToken.None, TaskCreationOptions.None, scheduler).Unwrap();
        scheduler.RunAll();
        Gate.SetResult();
        scheduler.RunUntil(task);
        Console.WriteLine($"  {task.Status}; main: {State()}");
    }

    static void Main()
    {
        foreach (var fails in new[] { false, true })
            foreach (var between in new[] { false, true })
                Scenario(fails, between);
    }
}
