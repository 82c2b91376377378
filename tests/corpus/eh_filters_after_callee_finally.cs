// A caller's exception filter (catch ... when) runs after the finally blocks of the async methods
// it awaited: classic async's builder catches the exception in each method, so a callee's
// finally, using's Dispose and lock release have all run before any caller's filter sees it.
// Callees awaited directly, through virtual and interface calls, generic, value-returning and
// void, one and two frames down, filters that decline, and stack traces read in the filter.
using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

interface IStep { Task<int> Run(int n); }

class Step : IStep
{
    public virtual async Task<int> Run(int n)
    {
        Program.Busy = true;
        try
        {
            await Program.Pause();
            if (n > 0) throw new InvalidOperationException($"step {n}");
            return n;
        }
        finally
        {
            Program.Busy = false;
            Program.Log += "step-finally ";
        }
    }
}

sealed class Tracked : IDisposable
{
    public static int Open;
    public Tracked() => Open++;
    public void Dispose() { Open--; Program.Log += "dispose "; }
}

static class Program
{
    public static bool Suspend;
    public static bool Busy;
    public static string Log = "";
    static readonly object Gate = new();

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static bool See(string name, bool result)
    {
        Log += $"{name}(busy={Busy},open={Tracked.Open},locked={Monitor.IsEntered(Gate)}) ";
        return result;
    }

    static async Task<int> WithFinally(int n)
    {
        Busy = true;
        try
        {
            await Pause();
            throw new ArgumentException($"finally {n}");
        }
        finally
        {
            Busy = false;
            Log += "finally ";
        }
    }

    static async Task WithUsing()
    {
        using var tracked = new Tracked();
        await Pause();
        throw new FormatException("using");
    }

    static async Task WithLock()
    {
        await Pause();
        lock (Gate)
        {
            Log += "locked ";
            throw new TimeoutException("lock");
        }
    }

    static async Task<T> Generic<T>(T value)
    {
        try
        {
            Busy = true;
            await Pause();
            throw new InvalidCastException($"generic {value}");
        }
        finally
        {
            Busy = false;
            Log += "generic-finally ";
        }
    }

    static async Task<int> Middle(int n)
    {
        try
        {
            return await WithFinally(n) + 1;
        }
        finally
        {
            Log += "middle-finally ";
        }
    }

    static async Task Case(string name, Func<Task> body)
    {
        Log = "";
        Busy = false;
        try
        {
            await body();
        }
        catch (Exception e)
        {
            Log += $"outer({e.GetType().Name})";
        }
        Console.WriteLine($"{name}: {Log}");
    }

    static async Task Main()
    {
        foreach (bool suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            await Case("direct", async () =>
            {
                try { await WithFinally(1); }
                catch (ArgumentException) when (See("filter", true)) { Log += "caught "; }
            });
            await Case("two frames", async () =>
            {
                try { Console.WriteLine(await Middle(2)); }
                catch (Exception) when (See("filter", true)) { Log += "caught "; }
            });
            await Case("declining filter", async () =>
            {
                try { await Middle(3); }
                catch (Exception) when (See("declines", false)) { Log += "wrong "; }
            });
            await Case("nested filters", async () =>
            {
                try
                {
                    try { await WithUsing(); }
                    catch (FormatException) when (See("inner", false)) { Log += "wrong "; }
                }
                catch (FormatException) when (See("outer", true)) { Log += "caught "; }
            });
            await Case("lock", async () =>
            {
                try { await WithLock(); }
                catch (TimeoutException) when (See("filter", true)) { Log += "caught "; }
            });
            await Case("virtual", async () =>
            {
                Step step = new Step();
                try { await step.Run(4); }
                catch (InvalidOperationException) when (See("filter", true)) { Log += "caught "; }
            });
            await Case("interface", async () =>
            {
                IStep step = new Step();
                try { await step.Run(5); }
                catch (InvalidOperationException) when (See("filter", true)) { Log += "caught "; }
            });
            await Case("generic", async () =>
            {
                try { await Generic("x"); }
                catch (InvalidCastException) when (See("filter", true)) { Log += "caught "; }
            });
            // A named method, not a lambda: classic names an async lambda's frame by its state machine.
            await Case("trace in filter", TraceCase);
        }
    }

    static async Task TraceCase()
    {
        try { await Middle(6); }
        catch (Exception e) when (See("filter", true) && Trace(e, "in filter")) { Trace(e, "in catch"); Log += "caught "; }
    }

    static bool Trace(Exception e, string where)
    {
        Console.WriteLine($"  trace {where}:");
        foreach (var line in e.StackTrace!.Split('\n'))
            Console.WriteLine($"    {line.Trim()}");
        return true;
    }
}
