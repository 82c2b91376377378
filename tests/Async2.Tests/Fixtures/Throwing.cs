// Fixture: an exception thrown after a suspension, so its stack trace must carry the source line.
using System;
using System.Threading.Tasks;

static class Program
{
    static async Task<int> Inner(int n)
    {
        await Task.Yield();
        if (n > 0)
            throw new InvalidOperationException("thrown after a suspension");
        return n;
    }

    static async Task<int> Main(string[] args)
    {
        try
        {
            await Inner(args.Length);
            Console.WriteLine("no exception");
            return 0;
        }
        catch (InvalidOperationException e)
        {
            Console.WriteLine(e.ToString());
            return 7;
        }
    }
}
