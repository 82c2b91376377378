// A custom "switch to" awaiter moving a method onto another single-threaded loop (a common UI
// pattern): the method continues on the target loop, its callees resume there too, and its caller,
// which awaited it from the first loop, comes back to the first loop; switching inside a try/finally,
// to the thread pool and back; two loops, each check printing which loop (or the pool) runs the code.
using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

/// <summary>Awaiting it continues on <c>target</c>'s loop, or on the thread pool for null.</summary>
readonly struct SwitchTo : INotifyCompletion
{
    private readonly SynchronizationContext? target;
    public SwitchTo(SynchronizationContext? target) { this.target = target; }
    public SwitchTo GetAwaiter() => this;
    public bool IsCompleted => SynchronizationContext.Current == target;
    public void OnCompleted(Action continuation)
    {
        if (target is null) ThreadPool.QueueUserWorkItem(_ => continuation());
        else target.Post(_ => continuation(), null);
    }
    public void GetResult() { }
}

static class Program
{
    static bool Suspend;
    static SingleThreadLoop A = null!, B = null!;

    static string Where()
    {
        var thread = Thread.CurrentThread;
        string name = thread == A.Thread ? "A" : thread == B.Thread ? "B" : "pool";
        string context = SynchronizationContext.Current is SingleThreadLoop loop ? loop.Name : "none";
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
        await new SwitchTo(B);
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
            await new SwitchTo(B);
            s += "try " + Where();
            await new SwitchTo(null);
            s += ", pool " + Where();
        }
        finally
        {
            await new SwitchTo(A);
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
            A = new SingleThreadLoop("A");
            B = new SingleThreadLoop("B");
            var result = new TaskCompletionSource<Task<string>>();
            A.Post(_ => result.SetResult(OnA()), null);
            Console.WriteLine(result.Task.Result.Result);
            A.Stop();
            B.Stop();
        }
    }
}
