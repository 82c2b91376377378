// Fixture: which methods get a fresh-call variant and what it calls, inspected by FreshCallVariantTests.
using System;
using System.Threading.Tasks;

public static class Program
{
    public static async Task<int> Fib(int n) => n < 2 ? n : await Fib(n - 1) + await Fib(n - 2);

    public static async Task<int> SumAfterYields(int n)
    {
        int sum = 0;
        for (int i = 0; i < n; i++)
        {
            try
            {
                await Task.Yield();
                sum += await Fib(i);
            }
            finally
            {
                sum++;
            }
        }
        return sum;
    }

    public static async Task<int> CapturesInALambda(int x)
    {
        Func<int> read = () => x * 2;
        await Task.Yield();
        return read() + await Fib(5);
    }

    public static async Task Main()
    {
        Console.WriteLine($"fib {await Fib(20)}");
        Console.WriteLine($"sum {await SumAfterYields(10)}");
        Console.WriteLine($"lambda {await CapturesInALambda(4)}");
    }
}
