// awaits in handlers nested inside handlers: a try/catch with awaits inside a catch block, awaits in
// finally blocks at three levels with a pending return, break and continue leaving tries whose
// finally awaits, a filter reading a local modified after a suspension, and a loop starting the
// method whose try holds the first await.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static string log = "";

    static async Task<int> V(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task Boom(string m)
    {
        if (Suspend) await Task.Delay(1);
        throw new InvalidOperationException(m);
    }

    static async Task<string> TryInCatch(int mode)
    {
        string s = "";
        try
        {
            await Boom("outer");
        }
        catch (InvalidOperationException e)
        {
            s += "caught " + e.Message;
            try
            {
                s += " inner-try " + await V(1);
                if (mode == 1) await Boom("inner");
            }
            catch (InvalidOperationException e2)
            {
                s += " inner-caught " + e2.Message + await V(2);
            }
            finally
            {
                s += " inner-finally" + await V(3);
            }
            s += " after " + e.Message;
        }
        return s;
    }

    static async Task<int> PendingReturn(int mode)
    {
        try
        {
            try
            {
                try
                {
                    if (mode == 0) return await V(10);
                    if (mode == 1) await Boom("deep");
                    return 11;
                }
                finally
                {
                    log += "f3-" + await V(3) + ";";
                }
            }
            finally
            {
                log += "f2-" + await V(2) + ";";
                if (mode == 2) log += "m2;";
            }
        }
        catch (InvalidOperationException) when (mode == 1)
        {
            log += "caught;";
            return -1;
        }
        finally
        {
            await V(1);
            log += "f1;";
        }
    }

    static async Task<string> BreakContinue()
    {
        string s = "";
        for (int i = 0; i < 5; i++)
        {
            try
            {
                if (i == 1) continue;
                s += await V(i);
                if (i == 3) break;
            }
            finally
            {
                s += "(" + await V(i * 10) + ")";
            }
            s += ";";
        }
        return s;
    }

    static async Task<string> FilterReadsLocal(int threshold)
    {
        int seen = 0;
        try
        {
            seen = await V(threshold);
            seen += await V(1);
            await Boom("filtered " + seen);
            return "none";
        }
        catch (InvalidOperationException e) when (seen > 5)
        {
            return "big " + e.Message;
        }
        catch (InvalidOperationException e) when (seen <= 5)
        {
            return "small " + e.Message;
        }
    }

    static async Task<int> LoopFirst(int n)
    {
        int i = 0;
        while (true)
        {
            try
            {
                i += await V(1);
                if (i >= n) return i;
            }
            catch (Exception)
            {
                return -1;
            }
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await TryInCatch(0));
            Console.WriteLine(await TryInCatch(1));
            foreach (var mode in new[] { 0, 1, 2 })
            {
                log = "";
                Console.WriteLine($"PendingReturn({mode}) = {await PendingReturn(mode)} log={log}");
            }
            Console.WriteLine(await BreakContinue());
            Console.WriteLine(await FilterReadsLocal(2) + " / " + await FilterReadsLocal(9));
            Console.WriteLine(await LoopFirst(4));
        }
    }
}
