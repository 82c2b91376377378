// awaits inside try of try/finally, nested several levels, with finally running exactly once on the
// normal path, on early return, on break/continue out of a loop, and on the exception path;
// finally blocks observed through a counter and an ordered log.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static int finallies;
    static string log = "";

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task Fail(string message)
    {
        if (Suspend) await Task.Delay(1);
        throw new InvalidOperationException(message);
    }

    static async Task<int> Simple(bool fail)
    {
        int r = 0;
        try
        {
            log += "t";
            r = await Value(1);
            if (fail) await Fail("simple");
            r += await Value(2);
        }
        finally
        {
            finallies++;
            log += "f";
        }
        return r;
    }

    static async Task<int> EarlyReturn(int n)
    {
        try
        {
            if (await Value(n) > 5)
                return 1;
            try
            {
                if (await Value(n) > 2)
                    return 2;
            }
            finally
            {
                finallies++;
                log += "i";
            }
            return 3;
        }
        finally
        {
            finallies++;
            log += "o";
        }
    }

    static async Task<int> Loop()
    {
        int sum = 0;
        for (int i = 0; i < 6; i++)
        {
            try
            {
                if (i == 1) continue;
                sum += await Value(i);
                if (i == 4) break;
            }
            finally
            {
                finallies++;
                log += i;
            }
        }
        return sum;
    }

    static async Task<string> Deep(int throwAt)
    {
        string s = "";
        try
        {
            s += "1";
            await Value(0);
            if (throwAt == 1) await Fail("at 1");
            try
            {
                s += "2";
                await Value(0);
                if (throwAt == 2) await Fail("at 2");
                try
                {
                    s += "3";
                    await Value(0);
                    if (throwAt == 3) await Fail("at 3");
                    s += "4";
                }
                finally
                {
                    finallies++;
                    log += "c";
                }
            }
            finally
            {
                finallies++;
                log += "b";
            }
        }
        finally
        {
            finallies++;
            log += "a";
        }
        return s;
    }

    static async Task Report(string name, Func<Task<string>> run)
    {
        finallies = 0;
        log = "";
        string result;
        try
        {
            result = await run();
        }
        catch (Exception e)
        {
            result = e.GetType().Name + ": " + e.Message;
        }
        Console.WriteLine($"{name}: {result} finallies={finallies} log={log}");
    }

    static async Task<string> Str(Task<int> t) => (await t).ToString();

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            await Report("Simple(false)", () => Str(Simple(false)));
            await Report("Simple(true)", () => Str(Simple(true)));
            foreach (var n in new[] { 1, 3, 9 })
                await Report($"EarlyReturn({n})", () => Str(EarlyReturn(n)));
            await Report("Loop", () => Str(Loop()));
            foreach (var t in new[] { 0, 1, 2, 3 })
                await Report($"Deep({t})", () => Deep(t));
        }
    }
}
