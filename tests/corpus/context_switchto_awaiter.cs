// A custom "switch to" awaiter moving a method onto another single-threaded loop (a common UI
// pattern): the method continues on the target loop, its callees resume there too, and its caller,
// which awaited it from the first loop, comes back to the first loop; switching inside a try/finally,
// to the thread pool and back; two loops, each check printing which loop (or the pool) runs the code.
using System;
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class Loop : SynchronizationContext
{
    private readonly BlockingCollection<(SendOrPostCallback, object?)> queue = new();
    public readonly string Name;
    public readonly Thread Thread;

    public Loop(string name)
    {
        Name = name;
        Thread = new Thread(() =>
        {
            SetSynchronizationContext(this);
            foreach (var (callback, state) in queue.GetConsumingEnumerable())
                callback(state);
        }) { IsBackground = true };
        Thread.Start();
    }

    public override void Post(SendOrPostCallback d, object? state) => queue.Add((d, state));

    public override SynchronizationContext CreateCopy() => this;

    public void Stop() { queue.CompleteAdding(); Thread.Join(); }

    public SwitchAwaitable SwitchTo() => new SwitchAwaitable(this);

    public readonly struct SwitchAwaitable : INotifyCompletion
    {
        private readonly SynchronizationContext? target;
        public SwitchAwaitable(SynchronizationContext? target) { this.target = target; }
        public SwitchAwaitable GetAwaiter() => this;
        public bool IsCompleted => SynchronizationContext.Current == target;
        public void OnCompleted(Action continuation)
        {
            if (target is null) ThreadPool.QueueUserWorkItem(_ => continuation());
            else target.Post(_ => continuation(), null);
        }
        public void GetResult() { }
    }
}

static class Program
{
    static bool Suspend;
    static Loop A = null!, B = null!;

    static string Where()
    {
        var thread = Thread.CurrentThread;
        string name = thread == A.Thread ? "A" : thread == B.Thread ? "B" : "pool";
        string context = SynchronizationContext.Current is Loop loop ? loop.Name : "none";
        return name == context || (name == "pool" && context == "none") ? name : name + "/ctx " + context;
    }

    static async Task Pause()
    {
        if (Suspend) await Task.Delay(1);
    }

    static async Task<string> Callee()
    {
        await Pause();
        return "callee " + Where();
    }

    static async Task<string> MovesToB()
    {
        string s = "moves from " + Where();
        await B.SwitchTo();
        s += ", now " + Where();
        await Pause();
        s += ", after pause " + Where();
        s += ", " + await Callee();
        return s;
    }

    static async Task<string> SwitchesInsideTry()
    {
        string s = "";
        try
        {
            await B.SwitchTo();
            s += "try " + Where();
            await new Loop.SwitchAwaitable(null);
            s += ", pool " + Where();
        }
        finally
        {
            await A.SwitchTo();
            s += ", finally " + Where();
        }
        return s;
    }

    static async Task<string> OnA()
    {
        string s = "caller starts on " + Where();
        s += "\n" + await MovesToB() + "\ncaller back on " + Where();
        s += "\n" + await SwitchesInsideTry() + "\ncaller back on " + Where();
        await Pause();
        s += "\nafter pause " + Where();
        return s;
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            A = new Loop("A");
            B = new Loop("B");
            var result = new TaskCompletionSource<Task<string>>();
            A.Post(_ => result.SetResult(OnA()), null);
            Console.WriteLine(result.Task.Result.Result);
            A.Stop();
            B.Stop();
        }
    }
}
