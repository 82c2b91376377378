// Locals that only an exception path reads, assigned between awaits: a catch, a `when` filter and a
// finally reading values written after the last suspension before the throw (live across the await
// only along the exception edge); a filter that throws (taken as false) and one with side effects
// ordered against inner finally blocks of the same method after a resume; a finally that awaits and
// then throws, replacing the exception in flight; a pending `return` whose local the finally changes
// after an await (the returned value was taken before); goto, break and continue leaving three
// nested try/finally blocks from after an await; Data added in a catch after an await and `throw;`.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

sealed class StepException : Exception
{
    public int Step { get; }
    public StepException(int step, Exception? inner = null) : base("step " + step, inner) { Step = step; }
}

static class Program
{
    static bool Suspend;
    static readonly List<string> log = new();

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task Fail(int step)
    {
        if (Suspend) await Task.Yield();
        throw new StepException(step);
    }

    static bool Note(string s, bool result) { log.Add(s); return result; }

    static bool Boom(string s) { log.Add(s); throw new InvalidOperationException("filter " + s); }

    // progress and name change between awaits; only the catch and the filter read them.
    static async Task<string> CatchReadsProgress(int failAt)
    {
        int progress = 0;
        string name = "start";
        long big = 0;
        try
        {
            for (int i = 1; i <= 4; i++)
            {
                await Value(i);
                progress = i * 10;
                name = "n" + i;
                big = (long)i << 40;
                if (i == failAt) await Fail(i);
                progress++;
            }
            return "ok " + progress;
        }
        catch (StepException e) when (Note("filter:" + progress + name, progress == e.Step * 10))
        {
            return $"caught {e.Step} progress={progress} name={name} big={big >> 40}";
        }
    }

    static async Task<string> FinallyReadsProgress(int failAt)
    {
        string trail = "";
        decimal money = 0m;
        try
        {
            try
            {
                for (int i = 1; i <= 3; i++)
                {
                    trail += await Value(i);
                    money += 1.5m;
                    if (i == failAt) throw new StepException(i);
                    await Value(0);
                }
            }
            finally
            {
                log.Add($"finally trail={trail} money={money}");
            }
        }
        catch (StepException e)
        {
            return "caught " + e.Step + " " + trail;
        }
        return "done " + trail;
    }

    // The filter runs before the inner finally blocks (first pass), also after a resume.
    static async Task<string> FilterBeforeInnerFinally(int mode)
    {
        int seen = -1;
        try
        {
            try
            {
                try
                {
                    seen = await Value(mode);
                    if (mode == 1) await Fail(1);
                    if (mode == 2) throw new StepException(2);
                }
                finally { log.Add("inner finally seen=" + seen); }
            }
            finally { log.Add("middle finally"); await Value(0); log.Add("middle finally after await"); }
        }
        catch (StepException e) when (Boom("throwing filter " + e.Step))
        {
            return "never";
        }
        catch (StepException e) when (Note("filter seen=" + seen, true))
        {
            return "caught " + e.Step;
        }
        return "none";
    }

    // Without awaits in the finally blocks, the filters run before them (first pass), also after a resume.
    static async Task<string> FilterBeforeSyncFinally(int mode)
    {
        int seen = -1;
        try
        {
            try
            {
                try
                {
                    seen = await Value(mode);
                    if (mode == 1) await Fail(1);
                    seen += 100;
                    if (mode == 2) throw new StepException(2);
                }
                finally { log.Add("inner finally seen=" + seen); seen = -5; }
            }
            finally { log.Add("middle finally"); }
        }
        catch (StepException e) when (Boom("throwing filter " + e.Step))
        {
            return "never";
        }
        catch (StepException e) when (Note("filter seen=" + seen, true))
        {
            return "caught " + e.Step + " seen=" + seen;
        }
        return "none";
    }

    // A finally that awaits and then throws replaces the exception in flight.
    static async Task<string> FinallyReplaces(bool throwInTry)
    {
        try
        {
            try
            {
                await Value(1);
                if (throwInTry) throw new StepException(1);
                return "returned";
            }
            finally
            {
                await Value(2);
                log.Add("finally awaited");
                throw new StepException(99, new InvalidOperationException("inner"));
            }
        }
        catch (StepException e)
        {
            return $"caught {e.Step} inner={e.InnerException?.Message}";
        }
    }

    // The value returned is the one `return x` read, not what the finally set later.
    static async Task<int> PendingReturn()
    {
        int x = await Value(1);
        try
        {
            x = await Value(2);
            return x;
        }
        finally
        {
            x = 3;
            await Value(x);
            log.Add("finally x=" + x);
        }
    }

    static async Task<string> GotoOutOfFinallys()
    {
        string s = "";
        for (int round = 0; round < 3; round++)
        {
            try
            {
                s += "a" + round;
                try
                {
                    try
                    {
                        s += await Value(round);
                        if (round == 0) continue;
                        if (round == 1) goto next;
                        if (round == 2) break;
                    }
                    finally { s += "[f1]"; await Value(0); }
                }
                finally { s += "[f2]"; }
            }
            finally { s += "[f3]"; await Value(0); s += "[f3b]"; }
            s += "unreached";
        next:
            s += "|next" + round + "|";
        }
        return s;
    }

    static async Task<string> DataThenRethrow()
    {
        try
        {
            try
            {
                await Fail(5);
            }
            catch (StepException e)
            {
                e.Data["where"] = "catch" + await Value(7);
                try
                {
                    await Value(8);
                    throw;
                }
                catch (StepException again) when (again == e)
                {
                    e.Data["again"] = true;
                    throw;
                }
            }
        }
        catch (Exception e)
        {
            return $"{e.GetType().Name} {e.Message} where={e.Data["where"]} again={e.Data["again"]}";
        }
        return "none";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            for (int f = 1; f <= 5; f++)
            {
                log.Clear();
                Console.WriteLine($"CatchReadsProgress({f}) = {await CatchReadsProgress(f)} [{string.Join(",", log)}]");
            }
            for (int f = 1; f <= 4; f++)
            {
                log.Clear();
                Console.WriteLine($"FinallyReadsProgress({f}) = {await FinallyReadsProgress(f)} [{string.Join(",", log)}]");
            }
            for (int m = 0; m <= 2; m++)
            {
                log.Clear();
                Console.WriteLine($"FilterBeforeInnerFinally({m}) = {await FilterBeforeInnerFinally(m)} [{string.Join(" / ", log)}]");
            }
            for (int m = 0; m <= 2; m++)
            {
                log.Clear();
                Console.WriteLine($"FilterBeforeSyncFinally({m}) = {await FilterBeforeSyncFinally(m)} [{string.Join(" / ", log)}]");
            }
            foreach (var t in new[] { false, true })
            {
                log.Clear();
                Console.WriteLine($"FinallyReplaces({t}) = {await FinallyReplaces(t)} [{string.Join(",", log)}]");
            }
            log.Clear();
            Console.WriteLine($"PendingReturn = {await PendingReturn()} [{string.Join(",", log)}]");
            Console.WriteLine($"GotoOutOfFinallys = {await GotoOutOfFinallys()}");
            Console.WriteLine($"DataThenRethrow = {await DataThenRethrow()}");
        }
    }
}
