// The well-behaved pattern seed 002 expects of code that changes the SynchronizationContext: set it
// in a method and put the previous one back in a finally, with awaits in between (continuations
// inside run on the installed context, which a plain await captures); callers before and after see
// their own; the same with an exception escaping the scope; nested scopes.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static string Current => ThreadPoolContext.CurrentName;

    static async Task Pause()
    {
        if (Suspend) await Task.Delay(1);
    }

    static async Task<string> Scoped(string name, bool fail, Func<Task<string>>? inner = null)
    {
        var previous = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(new ThreadPoolContext(name));
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
