// ConfigureAwait(false) and ConfigureAwait(true) on Task, Task<T>, ValueTask and ValueTask<T>
// produced by async methods of the program and by the BCL, completed and pending, with results
// and with exceptions flowing through the configured awaitables.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static string log = "";

    static async Task Work(string tag)
    {
        if (Suspend) await Task.Delay(1).ConfigureAwait(false);
        log += tag;
    }

    static async Task<int> Compute(int v)
    {
        if (Suspend) await Task.Yield();
        return v * v;
    }

    static async ValueTask VWork(string tag)
    {
        if (Suspend) await Task.Delay(1).ConfigureAwait(true);
        log += tag;
    }

    static async ValueTask<string> VCompute(string s)
    {
        if (Suspend) await Task.Yield();
        return s + s;
    }

    static async Task<int> Faulty(int v)
    {
        if (Suspend) await Task.Yield();
        throw new InvalidOperationException("faulty " + v);
    }

    static async ValueTask<int> VFaulty(int v)
    {
        if (Suspend) await Task.Delay(1).ConfigureAwait(false);
        throw new ArgumentOutOfRangeException(nameof(v), "vfaulty " + v);
    }

    static async Task<string> AllForms()
    {
        await Work("a").ConfigureAwait(false);
        await Work("b").ConfigureAwait(true);
        int x = await Compute(3).ConfigureAwait(false);
        int y = await Compute(4).ConfigureAwait(true);
        await VWork("c").ConfigureAwait(false);
        await VWork("d").ConfigureAwait(true);
        string s = await VCompute("e").ConfigureAwait(false);
        string t = await VCompute("f").ConfigureAwait(true);
        int z = 1 + await Task.FromResult(41).ConfigureAwait(false);
        await Task.CompletedTask.ConfigureAwait(false);
        await new ValueTask<int>(Compute(5)).ConfigureAwait(false);
        await new ValueTask(Work("g")).ConfigureAwait(true);
        return $"{x} {y} {s} {t} {z}";
    }

    static async Task<string> Faults()
    {
        string r = "";
        try { await Faulty(1).ConfigureAwait(false); }
        catch (Exception e) { r += e.GetType().Name + ": " + e.Message + "; "; }
        try { await Faulty(2).ConfigureAwait(true); }
        catch (Exception e) { r += e.GetType().Name + ": " + e.Message + "; "; }
        try { await VFaulty(3).ConfigureAwait(false); }
        catch (Exception e) { r += e.GetType().Name + ": " + e.Message + "; "; }
        try { await Task.FromException(new FormatException("pre-faulted")).ConfigureAwait(false); }
        catch (Exception e) { r += e.GetType().Name + ": " + e.Message + "; "; }
        try { await Task.FromCanceled<int>(new System.Threading.CancellationToken(true)).ConfigureAwait(true); }
        catch (Exception e) { r += e.GetType().Name + ": " + e.Message; }
        return r;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            log = "";
            Console.WriteLine($"AllForms = {await AllForms().ConfigureAwait(false)} log={log}");
            Console.WriteLine($"Faults = {await Faults()}");
        }
    }
}
