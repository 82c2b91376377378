// SynchronizationContext changes made by a callee are undone when it returns to its awaiting caller,
// as classic async's builder does: a callee that installs a context and returns synchronously, that
// installs one and then suspends (its continuation runs on the context it installed), that throws,
// and one that removes the caller's context; each line says which context is current where.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static string Current => ThreadPoolContext.CurrentName;

    static async Task<string> InstallsAndReturns(string name)
    {
        SynchronizationContext.SetSynchronizationContext(new ThreadPoolContext(name));
        return "callee installed " + Current;
    }

    static async Task<string> InstallsAndSuspends(string name)
    {
        SynchronizationContext.SetSynchronizationContext(new ThreadPoolContext(name));
        if (Suspend) await Task.Delay(1);
        return "callee resumed on " + Current;
    }

    static async Task InstallsAndThrows(string name)
    {
        SynchronizationContext.SetSynchronizationContext(new ThreadPoolContext(name));
        throw new InvalidOperationException("thrown on " + Current);
    }

    static async Task<string> Removes()
    {
        SynchronizationContext.SetSynchronizationContext(null);
        return "callee removed, now " + Current;
    }

    static async Task<string> Caller()
    {
        string s = "caller starts on " + Current;
        s += "\n" + await InstallsAndReturns("A") + "; caller back on " + Current;
        s += "\n" + await InstallsAndSuspends("B") + "; caller back on " + Current;
        try { await InstallsAndThrows("C"); }
        catch (InvalidOperationException e) { s += "\ncaught '" + e.Message + "'; caller on " + Current; }
        return s;
    }

    static async Task<string> CallerInsideContext()
    {
        SynchronizationContext.SetSynchronizationContext(new ThreadPoolContext("outer"));
        string s = "inside starts on " + Current;
        s += "\n" + await Removes() + "; inside back on " + Current;
        s += "\n" + await InstallsAndReturns("D") + "; inside back on " + Current;
        return s;
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(Caller().GetAwaiter().GetResult());
            Console.WriteLine("main on " + Current);
            Console.WriteLine(CallerInsideContext().GetAwaiter().GetResult());
            Console.WriteLine("main on " + Current);
        }
    }
}
