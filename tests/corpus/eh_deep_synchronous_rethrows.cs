// An exception thrown at the bottom of a deep synchronous descent of async methods, on a thread with
// a 1 MB stack, through frames that Async2 makes catch and rethrow it: each awaits its callee under
// an exception filter (the callee's finally blocks must run before the filter), or sets an
// AsyncLocal value (its context scope puts the caller's back before the caller's filters run).
// Classic async's builder catches it in every method and the caller throws it again from a shallow
// stack; rethrown inside each handler, it would take stack for every frame it passes.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static readonly AsyncLocal<int> Depth = new();
    static int filtersRun;
    static int finallysRun;

    static bool Declines(Exception e)
    {
        filtersRun++;
        return e is not InvalidOperationException;
    }

    static async Task<long> UnderFilters(int n)
    {
        if (n == 0)
            throw new InvalidOperationException("thrown at the bottom");
        try
        {
            return n + await UnderFilters(n - 1);
        }
        catch (Exception e) when (Declines(e))
        {
            return -1;
        }
        finally
        {
            finallysRun++;
        }
    }

    static async Task<long> SettingValues(int n)
    {
        Depth.Value = n;
        if (n == 0)
            throw new InvalidOperationException("thrown at the bottom");
        return n + await SettingValues(n - 1);
    }

    static async Task<long> Both(int n)
    {
        Depth.Value = n;
        if (n == 0)
            throw new InvalidOperationException("thrown at the bottom");
        try
        {
            return n + await Both(n - 1);
        }
        catch (Exception e) when (Declines(e) || Depth.Value != n)
        {
            return -1;
        }
    }

    static void OnSmallStack(string name, int depth, Func<int, Task<long>> method)
    {
        filtersRun = 0;
        finallysRun = 0;
        string outcome = "";
        var thread = new Thread(() =>
        {
            Depth.Value = -1;
            try
            {
                outcome = "returned " + method(depth).GetAwaiter().GetResult();
            }
            catch (InvalidOperationException e)
            {
                outcome = $"caught '{e.Message}', value={Depth.Value}";
            }
        }, 1024 * 1024);
        thread.Start();
        thread.Join();
        Console.WriteLine($"{name}, {depth} deep: {outcome}; filters run={filtersRun} finally blocks run={finallysRun}");
    }

    static void Main()
    {
        foreach (var depth in new[] { 10, 300, 1000 })
        {
            OnSmallStack("awaits under filters", depth, UnderFilters);
            OnSmallStack("sets values", depth, SettingValues);
            OnSmallStack("both", depth, Both);
        }
    }
}
