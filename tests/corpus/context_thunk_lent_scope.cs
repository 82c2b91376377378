// A Task thunk restores the caller's contexts itself, so a variant with a context scope called
// through its thunk leaves its restoring to the thunk. Checked here: callers through the Task
// surface (sync code, classic state machines, delegates) never see a callee's AsyncLocal or
// SynchronizationContext change, whether the callee returns, throws (seen from an exception
// filter too) or suspends; and a method without a scope of its own, called through its thunk,
// does not pass that saving on to a callee with a scope, whose changes must not reach it.
using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static readonly AsyncLocal<string?> Local = new();

    static string Seen => (Local.Value ?? "unset") + " on " + ThreadPoolContext.CurrentName;

    static async Task<string> Sets(string value, bool suspend)
    {
        Local.Value = value;
        SynchronizationContext.SetSynchronizationContext(new ThreadPoolContext(value));
        if (suspend) await Task.Yield();
        return "set " + value;
    }

    static async Task<string> Throws(string value, bool suspend)
    {
        Local.Value = value;
        if (suspend) await Task.Yield();
        throw new InvalidOperationException("thrown with " + Local.Value);
    }

    static async Task<string> Reads(string label) => label + " sees " + Seen;

    // No scope of its own: it only awaits rewritten methods in the compatible mode.
    static async Task<string> NoScope(bool suspend) => await Sets("inner", suspend) + "; " + await Reads("then");

    [RuntimeAsyncMethodGeneration(false)]
    static async Task<string> ClassicCaller(bool suspend)
    {
        string s = await Sets("from classic", suspend);
        return s + "; classic caller sees " + Seen;
    }

    static bool Filter(string label, ref string log)
    {
        log += label + " filter sees " + Seen + "; ";
        return true;
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Console.WriteLine($"-- suspend={suspend}");
            Local.Value = "outer";
            Console.WriteLine(Sets("direct", suspend).GetAwaiter().GetResult() + "; caller sees " + Seen);
            Console.WriteLine(NoScope(suspend).GetAwaiter().GetResult() + "; caller sees " + Seen);
            Console.WriteLine(ClassicCaller(suspend).GetAwaiter().GetResult() + "; caller sees " + Seen);
            Func<bool, Task<string>> viaDelegate = s => Sets("via delegate", s);
            Console.WriteLine(viaDelegate(suspend).GetAwaiter().GetResult() + "; caller sees " + Seen);
            string log = "";
            try { Throws("thrower", suspend).GetAwaiter().GetResult(); }
            catch (InvalidOperationException e) when (Filter("sync", ref log)) { log += e.Message + "; caller sees " + Seen; }
            Console.WriteLine(log);
        }
    }
}
