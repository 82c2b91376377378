// catch clauses with `when` filters around awaits: filters that read locals assigned before the
// await, filters that reject so an outer handler or a caller catches, filters with side effects
// (observed order), and filters on exceptions that were thrown after a suspension several frames down.
using System;
using System.Threading.Tasks;

sealed class CodedException : Exception
{
    public int Code { get; }
    public CodedException(int code) : base("code " + code) { Code = code; }
}

static class Program
{
    static bool Suspend;
    static string log = "";

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task Throw(int code)
    {
        if (Suspend) await Task.Delay(1);
        if (code > 0) throw new CodedException(code);
    }

    static async Task Deep(int code, int depth)
    {
        if (depth == 0) await Throw(code);
        else await Deep(code, depth - 1);
        log += "d" + depth;
    }

    static bool Note(string s, bool result)
    {
        log += s;
        return result;
    }

    static async Task<string> Filtered(int code)
    {
        int limit = await Value(10);
        try
        {
            await Deep(code, 3);
            return "none";
        }
        catch (CodedException e) when (Note("f1", e.Code < limit))
        {
            return "small " + e.Message + " " + await Value(e.Code);
        }
        catch (CodedException e) when (Note("f2", e.Code % 2 == 0))
        {
            return "even " + e.Message;
        }
    }

    static async Task<string> Outer(int code)
    {
        try
        {
            return await Filtered(code);
        }
        catch (CodedException e) when (Note("f3", true))
        {
            return "outer " + e.GetType().Name + ": " + e.Message;
        }
    }

    static async Task<string> NestedFilters(int code)
    {
        string s = "";
        try
        {
            try
            {
                s += await Value(1);
                await Throw(code);
                s += "x";
            }
            catch (CodedException e) when (e.Code == 1)
            {
                s += "inner";
            }
            s += await Value(2);
        }
        catch (CodedException e) when (e.Code == 2)
        {
            s += "outer" + await Value(3);
        }
        return s;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var code in new[] { 0, 3, 12, 13 })
            {
                log = "";
                Console.WriteLine($"Outer({code}) = {await Outer(code)} log={log}");
            }
            foreach (var code in new[] { 0, 1, 2, 3 })
            {
                try { Console.WriteLine($"NestedFilters({code}) = {await NestedFilters(code)}"); }
                catch (Exception e) { Console.WriteLine($"NestedFilters({code}) threw {e.GetType().Name}: {e.Message}"); }
            }
        }
    }
}
