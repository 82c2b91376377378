using System.Diagnostics;

namespace FibAsync;

/// <summary>
/// The demo's workload. Everything printed is deterministic except the lines starting with
/// "time:", which `async2 demo` leaves out when it compares the classic and rewritten transcripts.
/// </summary>
public static class Program
{
    private const int DefaultN = 30;

    public static async Task<int> Main(string[] args)
    {
        var n = DefaultN;
        if (args.Length > 0 && (!int.TryParse(args[0], out n) || n < 0 || n > 40))
        {
            Console.Error.WriteLine($"error: '{args[0]}' is not a valid n: expected an integer from 0 to 40 (Fib(40) already takes seconds). Usage: FibAsync [n]");
            return 2;
        }

        Console.WriteLine($"Fib({n}) = {Fib(n)}");
        Console.WriteLine($"FibAsync({n}) = {await FibAsync(n)}");

        // Awaits that really suspend: the continuation runs later on a thread-pool thread.
        Console.WriteLine($"SumWithYields(5) = {await SumWithYields(5)}");
        Console.WriteLine($"DoubleAfterDelay(21) = {await DoubleAfterDelay(21)}");

        // Warm up both so tiered compilation does not dominate the measurement below.
        for (var i = 0; i < 5; i++)
        {
            Fib(20);
            await FibAsync(20);
        }
        var stopwatch = Stopwatch.StartNew();
        Fib(n);
        var syncMs = stopwatch.Elapsed.TotalMilliseconds;
        stopwatch.Restart();
        await FibAsync(n);
        var asyncMs = stopwatch.Elapsed.TotalMilliseconds;
        Console.WriteLine($"time: Fib({n}) {syncMs:F1} ms, FibAsync({n}) {asyncMs:F1} ms");
        return 0;
    }

    private static int Fib(int n) => n < 2 ? n : Fib(n - 1) + Fib(n - 2);

    // Never suspends: every await finds a completed task. This is the path runtime async speeds up.
    private static async Task<int> FibAsync(int n) => n < 2 ? n : await FibAsync(n - 1) + await FibAsync(n - 2);

    private static async Task<int> SumWithYields(int count)
    {
        var sum = 0;
        for (var i = 1; i <= count; i++)
        {
            await Task.Yield();
            sum += i;
        }
        return sum;
    }

    private static async Task<int> DoubleAfterDelay(int value)
    {
        await Task.Delay(1);
        return value * 2;
    }
}
