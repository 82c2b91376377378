// awaits inside catch and finally blocks (Roslyn lowers them out of the handler): await in catch
// with the caught exception used afterwards, await in finally on normal and exceptional paths,
// rethrow `throw;` after an await in a catch, and awaits in both catch and finally of one try.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static string log = "";

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task Note(string s)
    {
        if (Suspend) await Task.Delay(1);
        log += s;
    }

    static async Task Fail(string message)
    {
        if (Suspend) await Task.Yield();
        throw new InvalidOperationException(message);
    }

    static async Task<string> AwaitInCatch(bool fail)
    {
        try
        {
            await Note("t");
            if (fail) await Fail("boom");
            return "no error";
        }
        catch (InvalidOperationException e)
        {
            int v = await Value(42);
            await Note("c");
            return $"caught {e.Message} then {v}";
        }
    }

    static async Task<int> AwaitInFinally(bool fail)
    {
        int x = 1;
        try
        {
            x = await Value(2);
            if (fail) await Fail("fin");
            x = 3;
        }
        finally
        {
            await Note("f" + x);
            x += await Value(100);
            log += "(" + x + ")";
        }
        return x;
    }

    static async Task Rethrow(int mode)
    {
        try
        {
            await Fail("original " + mode);
        }
        catch (InvalidOperationException e) when (mode > 0)
        {
            await Note("r" + mode);
            if (mode == 1) throw;
            if (mode == 2) throw new ArgumentException("wrapped", e);
            log += "swallowed";
        }
    }

    static async Task<string> Both(int mode)
    {
        string s = "";
        try
        {
            try
            {
                s += await Value(1);
                if (mode == 1) await Fail("inner");
            }
            catch (InvalidOperationException e)
            {
                s += "c:" + e.Message + await Value(2);
                if (mode == 1) await Fail("from catch");
            }
            finally
            {
                await Note("F");
                s += "f" + await Value(3);
            }
        }
        catch (Exception e)
        {
            await Note("O");
            s += "|outer:" + e.Message;
        }
        finally
        {
            s += "|of";
            await Note("G");
        }
        return s;
    }

    static async Task<string> LoopCatch()
    {
        string s = "";
        for (int i = 0; i < 3; i++)
        {
            try
            {
                await Fail("i" + i);
            }
            catch (Exception e)
            {
                s += await Value(i) + e.Message + ";";
                if (i == 1) continue;
            }
            finally
            {
                s += await Value(-i) + ",";
            }
            s += "end" + i + " ";
        }
        return s;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var fail in new[] { false, true })
            {
                log = "";
                Console.WriteLine($"AwaitInCatch({fail}) = {await AwaitInCatch(fail)} log={log}");
            }
            foreach (var fail in new[] { false, true })
            {
                log = "";
                try { Console.WriteLine($"AwaitInFinally({fail}) = {await AwaitInFinally(fail)} log={log}"); }
                catch (Exception e) { Console.WriteLine($"AwaitInFinally({fail}) threw {e.GetType().Name}: {e.Message} log={log}"); }
            }
            foreach (var mode in new[] { 0, 1, 2, 3 })
            {
                log = "";
                try { await Rethrow(mode); Console.WriteLine($"Rethrow({mode}) returned log={log}"); }
                catch (Exception e) { Console.WriteLine($"Rethrow({mode}) threw {e.GetType().Name}: {e.Message} inner={e.InnerException?.Message} log={log}"); }
            }
            foreach (var mode in new[] { 0, 1 })
            {
                log = "";
                Console.WriteLine($"Both({mode}) = {await Both(mode)} log={log}");
            }
            Console.WriteLine($"LoopCatch = {await LoopCatch()}");
        }
    }
}
