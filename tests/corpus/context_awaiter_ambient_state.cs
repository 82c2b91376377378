// What a custom awaiter's OnCompleted / UnsafeOnCompleted sees of the ambient machinery when it is
// handed the continuation: SynchronizationContext.Current, TaskScheduler.Current, whether a Task is
// running (Task.CurrentId), ExecutionContext.IsFlowSuppressed(); on a loop, under a custom
// TaskScheduler, deep in a chain resumed by the loop, after ConfigureAwait(false), and inside
// ExecutionContext.SuppressFlow / Task.Run. Printed as names and yes/no. A caller that captured no
// context, whose callee finished on the loop, continues on the thread pool as a work item, not
// inside a Task ("task run": Task.CurrentId is null there, as under classic async).
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class LoopScheduler : TaskScheduler
{
    readonly SingleThreadLoop loop;
    public LoopScheduler(SingleThreadLoop loop) => this.loop = loop;
    protected override void QueueTask(Task task) => loop.Post(_ => TryExecuteTask(task), null);
    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => false;
    protected override IEnumerable<Task>? GetScheduledTasks() => null;
}

static class Program
{
    static bool Suspend;
    static readonly List<string> Log = new();
    static SingleThreadLoop Loop = null!;
    static LoopScheduler Sched = null!;

    static string Ambient()
    {
        var sc = SynchronizationContext.Current;
        string scs = sc == null ? "none" : sc == Loop ? "loop" : sc.GetType().Name;
        var ts = TaskScheduler.Current;
        string tss = ts == TaskScheduler.Default ? "default" : ts == Sched ? "sched" : ts.GetType().Name;
        return $"sc={scs} ts={tss} task={(Task.CurrentId != null ? "yes" : "no")} suppressed={(ExecutionContext.IsFlowSuppressed() ? "yes" : "no")} onloop={(Thread.CurrentThread == Loop.Thread ? "yes" : "no")}";
    }

    sealed class Probe : ICriticalNotifyCompletion
    {
        public string Name = "";
        public Probe GetAwaiter() => this;
        public bool IsCompleted => false;
        public void GetResult() { }
        public void OnCompleted(Action c) { Log.Add($"  {Name} OnCompleted: {Ambient()}"); Loop.Post(_ => c(), null); }
        public void UnsafeOnCompleted(Action c) { Log.Add($"  {Name} UnsafeOnCompleted: {Ambient()}"); Loop.Post(_ => c(), null); }
    }

    sealed class PlainProbe : INotifyCompletion
    {
        public string Name = "";
        public PlainProbe GetAwaiter() => this;
        public bool IsCompleted => false;
        public void GetResult() { }
        public void OnCompleted(Action c) { Log.Add($"  {Name} OnCompleted: {Ambient()}"); Loop.Post(_ => c(), null); }
    }

    static async Task Leaf(string name)
    {
        if (Suspend) await Task.Yield();
        await new Probe { Name = name + " first" };
        Log.Add($"  {name} after first: {Ambient()}");
        await new PlainProbe { Name = name + " plain" };
        Log.Add($"  {name} after plain: {Ambient()}");
    }

    static async Task Middle(string name)
    {
        await Leaf(name);
        Log.Add($"  {name} middle after leaf: {Ambient()}");
    }

    static async Task Unconfigured(string name)
    {
        await Task.Delay(1).ConfigureAwait(false);
        await new Probe { Name = name + " off-loop" };
        Log.Add($"  {name} after off-loop: {Ambient()}");
    }

    static async Task SuppressedInside(string name)
    {
        if (Suspend) await Task.Yield();
        Task t;
        using (ExecutionContext.SuppressFlow())
        {
            t = Middle(name);
        }
        await t;
    }

    static async Task Body()
    {
        Log.Add("on loop");
        await Middle("loop");
        Log.Add("under scheduler");
        await Task.Factory.StartNew(() => Middle("sched"), CancellationToken.None, TaskCreationOptions.None, Sched).Unwrap();
        Log.Add("unconfigured");
        await Unconfigured("cf");
        Log.Add($"  back: {Ambient()}");
        Log.Add("suppressed");
        await SuppressedInside("sup");
        Log.Add("task run");
        await Task.Run(() => Middle("run"));
        Log.Add($"  back: {Ambient()}");
    }

    static void Main()
    {
        Loop = new SingleThreadLoop();
        Sched = new LoopScheduler(Loop);
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Log.Clear();
            Loop.RunUntilComplete(Body);
            Console.WriteLine($"suspend={suspend}");
            foreach (var l in Log) Console.WriteLine(l);
        }
        Loop.Stop();
    }
}
