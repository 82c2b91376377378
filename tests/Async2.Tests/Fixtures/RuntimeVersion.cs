// Fixture: prints the runtime running it (RuntimeInformation.FrameworkDescription) between awaits
// that suspend, with an exception caught after a suspension, and exits with 3: RuntimeCommandTests
// runs it with `async2 run --runtime 11` and compares it with its classic build on .NET 11.
using System;
using System.Runtime.InteropServices;
using System.Threading.Tasks;

static class Program
{
    static async Task<int> Main()
    {
        await Task.Yield();
        Console.WriteLine(RuntimeInformation.FrameworkDescription);
        Console.WriteLine($"sum {await SumAsync(100)}");
        try
        {
            await FailAsync();
        }
        catch (InvalidOperationException e)
        {
            Console.WriteLine($"caught: {e.Message}");
        }
        return 3;
    }

    static async Task<int> SumAsync(int n)
    {
        if (n == 0)
            return 0;
        if (n % 10 == 0)
            await Task.Delay(1);
        return n + await SumAsync(n - 1);
    }

    static async Task FailAsync()
    {
        await Task.Yield();
        throw new InvalidOperationException("thrown after a suspension");
    }
}
