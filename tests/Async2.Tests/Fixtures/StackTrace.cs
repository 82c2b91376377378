// Fixture: exceptions thrown after a suspension, several async frames down; Main prints each ToString().
//   1. Inner throws; Middle and Scoped have no handler at their await (the dispatcher passes the
//      exception through them), Scoped calls Console (so it gets a context scope), Outer has a
//      finally, Main catches.
//   2. Recurse(150): 150 frames without a handler, more than one pass-through run.
using System;
using System.Threading.Tasks;

static class Program
{
    static async Task<int> Inner(int x)
    {
        await Task.Yield();
        if (x > 0)
            throw new InvalidOperationException("boom");
        return x;
    }

    static async Task<int> Middle(int x)
    {
        int r = await Inner(x);
        return r + 1;
    }

    static async Task<int> Scoped(int x)
    {
        Console.WriteLine("in Scoped");
        int r = await Middle(x);
        return r + 1;
    }

    static async Task<int> Outer(int x)
    {
        try
        {
            return await Scoped(x) * 2;
        }
        finally
        {
            Console.WriteLine("finally in Outer");
        }
    }

    static async Task<int> Recurse(int depth)
    {
        if (depth == 0)
        {
            await Task.Yield();
            throw new InvalidOperationException("deep");
        }
        return await Recurse(depth - 1) + 1;
    }

    static async Task Main()
    {
        try
        {
            await Outer(1);
        }
        catch (Exception e)
        {
            Console.WriteLine(e.ToString());
        }
        Console.WriteLine("----");
        try
        {
            await Recurse(150);
        }
        catch (Exception e)
        {
            Console.WriteLine(e.ToString());
        }
    }
}
