// Fixture: an exception thrown after a suspension three async frames down; Main prints its ToString().
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

    static async Task<int> Outer(int x)
    {
        try
        {
            return await Middle(x) * 2;
        }
        finally
        {
            Console.WriteLine("finally in Outer");
        }
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
    }
}
