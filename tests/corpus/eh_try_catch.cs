// awaits inside try blocks of try/catch, nested several levels, exceptions thrown before and after
// a suspension and caught in the same frame or several frames up, catch clauses selected by type,
// exception types and messages printed.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<int> ThrowAfter(string kind, int v)
    {
        if (Suspend) await Task.Delay(1);
        switch (kind)
        {
            case "io": throw new InvalidOperationException("bad op " + v);
            case "arg": throw new ArgumentException("bad arg " + v);
            case "div": return 10 / (v - v);
            default: return v;
        }
    }

    static async Task<int> Leaf(string kind, int v) => await ThrowAfter(kind, v) + 1;

    static async Task<int> Middle(string kind, int v)
    {
        int x = await Value(v);
        return await Leaf(kind, x) * 2;
    }

    static async Task<string> SameFrame(string kind)
    {
        string log = "";
        try
        {
            log += "a";
            int r = await ThrowAfter(kind, 1);
            log += "b" + r;
        }
        catch (InvalidOperationException e)
        {
            log += " IOE:" + e.Message;
        }
        catch (ArgumentException e)
        {
            log += " AE:" + e.Message;
        }
        catch (Exception e)
        {
            log += " " + e.GetType().Name + ":" + e.Message;
        }
        log += " end" + await Value(9);
        return log;
    }

    static async Task<string> Nested(string kind, int level)
    {
        string log = "";
        try
        {
            log += "1";
            await Value(1);
            try
            {
                log += "2";
                try
                {
                    log += "3";
                    log += await Middle(level == 3 || level == 30 ? kind : "", 3);
                    log += "4";
                }
                catch (ArgumentException e)
                {
                    log += "[c3 " + e.Message + "]";
                    if (level == 30) throw new InvalidOperationException("from catch 3");
                }
                log += await Middle(level == 2 ? kind : "", 2);
                log += "5";
            }
            catch (DivideByZeroException e)
            {
                log += "[c2 " + e.GetType().Name + "]";
            }
            log += await Middle(level == 1 ? kind : "", 1);
        }
        catch (Exception e)
        {
            log += "[c1 " + e.GetType().Name + ": " + e.Message + "]";
        }
        return log;
    }

    static async Task<string> FarUp(string kind)
    {
        try
        {
            return "ok " + await Middle(kind, 5);
        }
        catch (Exception e)
        {
            return "far " + e.GetType().Name + ": " + e.Message;
        }
    }

    static async Task<string> LoopWithTry()
    {
        string log = "";
        for (int i = 0; i < 4; i++)
        {
            try
            {
                log += await ThrowAfter(i % 2 == 0 ? "" : "io", i);
            }
            catch (InvalidOperationException)
            {
                log += "x";
            }
        }
        return log;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var kind in new[] { "", "io", "arg", "div" })
                Console.WriteLine($"SameFrame({kind}) = {await SameFrame(kind)}");
            foreach (var kind in new[] { "io", "arg", "div" })
                foreach (var level in new[] { 0, 1, 2, 3, 30 })
                    Console.WriteLine($"Nested({kind},{level}) = {await Nested(kind, level)}");
            foreach (var kind in new[] { "", "io", "div" })
                Console.WriteLine($"FarUp({kind}) = {await FarUp(kind)}");
            Console.WriteLine($"LoopWithTry = {await LoopWithTry()}");
            try
            {
                await Middle("arg", 1);
            }
            catch (ArgumentException e)
            {
                Console.WriteLine("Main caught " + e.GetType().Name + ": " + e.Message);
            }
        }
    }
}
