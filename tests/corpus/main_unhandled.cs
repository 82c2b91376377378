// `static async Task Main()` that ends with an unhandled exception thrown after a suspension:
// the stdout written before it and the process exit code must match the classic build.
using System;
using System.Threading.Tasks;

static class Program
{
    static async Task Explode(bool suspend)
    {
        if (suspend) await Task.Delay(1);
        throw new InvalidOperationException("unhandled at the end");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Console.WriteLine($"-- suspend={suspend}");
            try
            {
                await Explode(suspend);
            }
            catch (InvalidOperationException e)
            {
                Console.WriteLine("caught " + e.Message);
            }
        }
        await Task.Yield();
        Console.WriteLine("about to fail");
        await Explode(true);
        Console.WriteLine("not reached");
    }
}
