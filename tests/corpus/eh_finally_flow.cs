// Control flow leaving try blocks whose finally blocks await: pending returns, breaks, gotos and
// exceptions replaced or kept by finally blocks that await, catch and throw themselves; nested
// try/catch inside finally with awaits in the inner catch while an outer exception is pending;
// `goto case` inside a try in a switch; await using inside a finally.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

sealed class StepException : Exception
{
    public int Step { get; }
    public StepException(int step, Exception? inner = null) : base("step " + step, inner) { Step = step; }
}

sealed class AsyncRes : IAsyncDisposable
{
    private readonly string name;
    private readonly List<string> log;
    private readonly bool fail;
    public AsyncRes(string name, List<string> log, bool fail = false) { this.name = name; this.log = log; this.fail = fail; }
    public async ValueTask DisposeAsync()
    {
        if (Program.Suspend) await Task.Yield();
        log.Add("dispose " + name);
        if (fail) throw new StepException(500);
    }
}

static class Program
{
    public static bool Suspend;
    static readonly List<string> log = new();

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task Fail(int step)
    {
        if (Suspend) await Task.Delay(1);
        throw new StepException(step);
    }

    // The finally awaits and then swallows its own inner exception; the outer one stays pending.
    static async Task<string> InnerCatchInFinally(int mode)
    {
        try
        {
            try
            {
                await Value(1);
                if (mode == 1) throw new StepException(1);
                if (mode == 2) await Fail(2);
                return "returned " + mode;
            }
            finally
            {
                log.Add("finally start");
                try
                {
                    await Fail(10 + mode);
                }
                catch (StepException e) when (e.Step >= 10)
                {
                    log.Add("inner caught " + e.Step + " " + await Value(e.Step * 2));
                }
                log.Add("finally end");
            }
        }
        catch (StepException e)
        {
            return "outer caught " + e.Step;
        }
    }

    // The finally throws after an await: the pending return or exception is dropped.
    static async Task<string> FinallyThrowsOverPending(int mode)
    {
        int x = 0;
        try
        {
            for (int i = 0; i < 3; i++)
            {
                try
                {
                    x = await Value(i + 10);
                    if (mode == 0 && i == 1) return "ret " + x;
                    if (mode == 1 && i == 1) break;
                    if (mode == 2 && i == 1) throw new StepException(7);
                    if (mode == 3 && i == 1) continue;
                }
                finally
                {
                    await Value(0);
                    log.Add("f" + i);
                    if (i == 1 && mode != 3) throw new StepException(100 + mode, new InvalidOperationException("x=" + x));
                }
                log.Add("after " + i);
            }
            return "loop done x=" + x;
        }
        catch (StepException e)
        {
            return $"caught {e.Step} inner={e.InnerException?.Message}";
        }
    }

    static async Task<string> GotoCaseInTry(int start)
    {
        string s = "";
        int state = start;
        int guard = 0;
        while (guard++ < 10)
        {
            try
            {
                switch (state)
                {
                    case 0:
                        s += "zero" + await Value(0);
                        state = 2;
                        goto case 1;
                    case 1:
                        s += "one";
                        try
                        {
                            if (await Value(state) == 2) goto case 3;
                            s += "!";
                        }
                        finally
                        {
                            s += "[in" + await Value(state) + "]";
                        }
                        state = 3;
                        break;
                    case 3:
                        s += "three";
                        state = 4;
                        continue;
                    case 4:
                        s += "four";
                        goto done;
                    default:
                        throw new StepException(state);
                }
            }
            finally
            {
                s += "<" + await Value(guard) + ">";
            }
        }
    done:
        return s;
    }

    // The pending exception of the outer try must survive a catch-with-await in the finally and an await using there.
    static async Task<string> AwaitUsingInFinally(bool failDispose, bool failBody)
    {
        try
        {
            try
            {
                await Value(1);
                if (failBody) throw new StepException(1);
                return "body returned";
            }
            finally
            {
                await using (var r = new AsyncRes("fin", log, failDispose))
                {
                    log.Add("in using " + await Value(3));
                }
                log.Add("after using");
            }
        }
        catch (StepException e)
        {
            return "caught " + e.Step;
        }
    }

    // The value returned is the one read at `return`, even when outer finally blocks change it after awaits.
    static async Task<int> ReturnsThroughThreeFinallys(int n)
    {
        int r = n;
        try
        {
            try
            {
                try
                {
                    r = await Value(r + 1);
                    if (r > 2) return r * 10;
                    r = -r;
                }
                finally
                {
                    r += 1000;
                    log.Add("f1 r=" + r + " " + await Value(1));
                }
                return r;
            }
            finally
            {
                r += await Value(2000);
                log.Add("f2 r=" + r);
            }
        }
        finally
        {
            r = await Value(-1);
            log.Add("f3 r=" + r);
        }
    }

    // An exception thrown in a catch with awaits while an outer finally awaits too.
    static async Task<string> CatchThrowsThroughFinally(int mode)
    {
        string trail = "";
        try
        {
            try
            {
                try
                {
                    await Fail(1);
                }
                catch (StepException e)
                {
                    trail += "c" + await Value(e.Step);
                    if (mode == 0) throw;
                    if (mode == 1) throw new StepException(2, e);
                    if (mode == 2) System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(e).Throw();
                    trail += "swallowed";
                }
                finally
                {
                    trail += "f" + await Value(9);
                }
                trail += "after";
            }
            catch (StepException e) when (trail.Contains("f9"))
            {
                trail += $"|outer {e.Step} inner={e.InnerException?.Message}";
            }
        }
        finally
        {
            trail += "|F";
        }
        return trail;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            for (int m = 0; m <= 2; m++)
            {
                log.Clear();
                Console.WriteLine($"InnerCatchInFinally({m}) = {await InnerCatchInFinally(m)} [{string.Join(",", log)}]");
            }
            for (int m = 0; m <= 3; m++)
            {
                log.Clear();
                Console.WriteLine($"FinallyThrowsOverPending({m}) = {await FinallyThrowsOverPending(m)} [{string.Join(",", log)}]");
            }
            foreach (var st in new[] { 0, 1, 3, 4, 7 })
            {
                try { Console.WriteLine($"GotoCaseInTry({st}) = {await GotoCaseInTry(st)}"); }
                catch (Exception e) { Console.WriteLine($"GotoCaseInTry({st}) threw {e.GetType().Name} {e.Message}"); }
            }
            foreach (var fd in new[] { false, true })
                foreach (var fb in new[] { false, true })
                {
                    log.Clear();
                    Console.WriteLine($"AwaitUsingInFinally({fd},{fb}) = {await AwaitUsingInFinally(fd, fb)} [{string.Join(",", log)}]");
                }
            foreach (var n in new[] { 0, 5 })
            {
                log.Clear();
                Console.WriteLine($"ReturnsThroughThreeFinallys({n}) = {await ReturnsThroughThreeFinallys(n)} [{string.Join(",", log)}]");
            }
            for (int m = 0; m <= 3; m++)
                Console.WriteLine($"CatchThrowsThroughFinally({m}) = {await CatchThrowsThroughFinally(m)}");
        }
    }
}
