// A TaskScheduler pumped by hand on the main thread (no threads of its own): every QueueTask and
// TryExecuteTaskInline call is logged in order, with whether it inlines. Rewritten chains started on
// it with Task.Factory.StartNew(...).Unwrap() go through awaits of callees that suspend, Task.Yield,
// exceptions through frames, WhenAll, ConfigureAwait(false) in the middle, and a TaskCompletionSource
// completed from a pumped task. Deterministic: a single thread runs everything.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class ManualScheduler(string name, bool allowInline) : TaskScheduler
{
    private readonly Queue<Task> _queue = new();
    public readonly List<string> Log = new();
    protected override void QueueTask(Task task) { Log.Add("queue"); _queue.Enqueue(task); }
    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued)
    {
        bool mine = Current == this;
        Log.Add($"inline?(prev={taskWasPreviouslyQueued},current={mine})");
        if (!allowInline) return false;
        return TryExecuteTask(task);
    }
    protected override IEnumerable<Task> GetScheduledTasks() => _queue;
    public int Pump()
    {
        int n = 0;
        while (_queue.Count > 0) { n++; TryExecuteTask(_queue.Dequeue()); }
        return n;
    }
    public override string ToString() => name;
}

static class Program
{
    static bool Suspend;
    static ManualScheduler S = null!;
    static TaskCompletionSource Gate = new();
    static readonly List<string> Log = new();
    static void L(string s) => Log.Add(s + (TaskScheduler.Current == S ? "" : " [off:" + TaskScheduler.Current.GetType().Name + "]"));

    static async Task<int> Leaf(int i)
    {
        if (Suspend) await Task.Yield();
        L($"leaf {i}");
        return i;
    }

    static async Task<int> Mid(int i)
    {
        int a = await Leaf(i);
        L($"mid {i} after leaf");
        int b = await Leaf(i + 1);
        L($"mid {i} after leaf2");
        return a + b;
    }

    static async Task<int> Top()
    {
        int x = await Mid(1);
        L("top after mid");
        return x;
    }

    static async Task<int> Thrower() { if (Suspend) await Task.Yield(); throw new InvalidOperationException("x"); }
    static async Task<int> PassThrough() => await Thrower();
    static async Task<int> Catches()
    {
        try { return await PassThrough(); }
        catch (InvalidOperationException) { L("caught"); return -1; }
    }

    static async Task<int> Gated()
    {
        if (Suspend) await Gate.Task;
        L("gated resumed");
        return 5;
    }
    static async Task<int> GatedCaller() { int r = await Gated(); L("gated caller"); return r; }

    static async Task<int> MidFalse()
    {
        int a = await Leaf(7).ConfigureAwait(false);
        L("midfalse after leaf");
        return a;
    }
    static async Task<int> TopOverMidFalse() { int r = await MidFalse(); L("top over midfalse"); return r; }

    static async Task<int> Fan()
    {
        var r = await Task.WhenAll(Mid(10), Leaf(20), Top());
        L("fan after whenall");
        return r[0] + r[1] + r[2];
    }

    static async ValueTask<int> VLeaf() { if (Suspend) await Task.Yield(); L("vleaf"); return 3; }
    static async Task<int> VCaller() { int r = await VLeaf(); L("vcaller"); return r; }

    static void Run(string title, Func<Task<int>> body, Action? between = null)
    {
        S.Log.Clear(); Log.Clear();
        var t = Task.Factory.StartNew(body, CancellationToken.None, TaskCreationOptions.None, S).Unwrap();
        int rounds = 0, steps = 0;
        int n;
        while ((n = S.Pump()) > 0 && rounds < 20) { rounds++; steps += n; if (between != null) { between(); between = null; } }
        if (between != null) between();
        steps += S.Pump();
        for (int i = 0; i < 400 && !t.IsCompleted; i++) { Thread.Sleep(5); steps += S.Pump(); }
        string outcome = t.IsCompletedSuccessfully ? t.Result.ToString() : t.Status.ToString();
        Console.WriteLine($"{title}: {outcome} steps={steps}");
        Console.WriteLine("  sched: " + string.Join(" ", S.Log));
        Console.WriteLine("  code:  " + string.Join(" | ", Log));
    }

    static void Main()
    {
        foreach (var allowInline in new[] { true, false })
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            S = new ManualScheduler("manual", allowInline);
            Console.WriteLine($"== inline={allowInline} suspend={suspend}");
            Run("top", Top);
            Run("catches", Catches);
            Gate = new TaskCompletionSource();
            Run("gated, set from a pumped task", GatedCaller, () => Task.Factory.StartNew(() => { L("setter"); Gate.SetResult(); L("setter done"); }, CancellationToken.None, TaskCreationOptions.None, S));
            Gate = new TaskCompletionSource();
            Run("gated, set from main", GatedCaller, () => { Gate.SetResult(); });
            Run("midfalse", TopOverMidFalse);
            Run("fan", Fan);
            Run("valuetask", VCaller);
        }
    }
}
