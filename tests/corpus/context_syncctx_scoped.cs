// The well-behaved pattern seed 002 expects of code that changes the SynchronizationContext: set it
// in a method and put the previous one back in a finally, with awaits in between (continuations
// inside run on the installed context, which a plain await captures); callers before and after see
// their own; the same with an exception escaping the scope; nested scopes.
using System;
using System.Threading;
using System.Threading.Tasks;

sealed class NamedContext : SynchronizationContext
{
    public readonly string Name;
    public NamedContext(string name) { Name = name; }

    public override void Post(SendOrPostCallback d, object? state) =>
        ThreadPool.QueueUserWorkItem(_ =>
        {
            var previous = Current;
            SetSynchronizationContext(this);
            try { d(state); }
            finally { SetSynchronizationContext(previous); }
        });

    public override SynchronizationContext CreateCopy() => this;
}

static class Program
{
    static bool Suspend;

    static string Current => SynchronizationContext.Current is NamedContext n ? n.Name : SynchronizationContext.Current is null ? "none" : "other";

    static async Task Pause()
    {
        if (Suspend) await Task.Delay(1);
    }

    static async Task<string> Scoped(string name, bool fail, Func<Task<string>>? inner = null)
    {
        var previous = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(new NamedContext(name));
        try
        {
            await Pause();
            string s = name + " inside on " + Current;
            if (inner is not null)
                s += " [" + await inner() + "] then " + Current;
            if (fail) throw new InvalidOperationException(name + " failed on " + Current);
            return s;
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(previous);
        }
    }

    static async Task<string> Caller()
    {
        string s = "caller on " + Current;
        s += "\n" + await Scoped("A", false) + "; caller on " + Current;
        try { await Scoped("B", true); }
        catch (InvalidOperationException e) { s += "\ncaught " + e.Message + "; caller on " + Current; }
        s += "\n" + await Scoped("C", false, () => Scoped("D", false)) + "; caller on " + Current;
        return s;
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(Caller().GetAwaiter().GetResult());
        }
    }
}
