// Seed 002's ConfigureAwaitAttribute at module level beats the assembly level (the module is nearer
// to the method): with [assembly: ConfigureAwait(true)] and [module: ConfigureAwait(false)] plain
// awaits leave a single-threaded scheduler-like loop (here a TaskScheduler on a dedicated thread),
// while a method marked ConfigureAwait(true) comes back to it. Classic async ignores the attribute,
// so this runs against its stated transcript.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

[assembly: ConfigureAwait(true)]
[module: ConfigureAwait(false)]

sealed class OneThread : TaskScheduler
{
    private readonly BlockingCollection<Task> queue = new();
    public readonly Thread Thread;

    public OneThread()
    {
        Thread = new Thread(() => { foreach (var t in queue.GetConsumingEnumerable()) TryExecuteTask(t); }) { IsBackground = true };
        Thread.Start();
    }

    protected override void QueueTask(Task task) => queue.Add(task);
    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => false;
    protected override IEnumerable<Task> GetScheduledTasks() => queue.ToArray();
}

static class Program
{
    static bool Suspend;
    static OneThread Scheduler = null!;

    static string Here => TaskScheduler.Current == Scheduler && Thread.CurrentThread == Scheduler.Thread ? "scheduler" : "elsewhere";

    static Task Pending() => Suspend ? Task.Delay(1) : Task.CompletedTask;

    static async Task<string> ModuleFalse()
    {
        string s = "module false: start " + Here;
        await Pending();
        return s + ", after await " + Here;
    }

    [ConfigureAwait(true)]
    static async Task<string> MethodTrue()
    {
        await Pending();
        return "method true: " + Here;
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Scheduler = new OneThread();
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var scenario in new Func<Task<string>>[] { ModuleFalse, MethodTrue })
                Console.WriteLine(Task.Factory.StartNew(scenario, CancellationToken.None, TaskCreationOptions.None, Scheduler).Unwrap().GetAwaiter().GetResult());
        }
    }
}
