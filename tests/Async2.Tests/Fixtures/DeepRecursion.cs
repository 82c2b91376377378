// Fixture: seed 003's CountRecursivelyAsync, a million awaits deep, on the main thread and on a
// thread-pool thread. Classic async overflows the stack; the rewritten build must count to the end.
using System;
using System.Threading;
using System.Threading.Tasks;

public static class Program
{
    static async Task<int> CountRecursivelyAsync(int count)
    {
        if (count <= 0)
            return count;
        return 1 + await CountRecursivelyAsync(count - 1);
    }

    // Mutual recursion: neither method calls itself, both are on the cycle.
    static async Task<bool> IsEvenAsync(int n) => n == 0 || await IsOddAsync(n - 1);

    static async Task<bool> IsOddAsync(int n) => n != 0 && await IsEvenAsync(n - 1);

    // The same through a ValueTask and a try/finally at every level, resumed after a real suspension at the bottom.
    static int s_finallies;

    static async ValueTask<long> SumWithFinallyAsync(int count, TaskCompletionSource<int> bottom)
    {
        try
        {
            if (count <= 0)
                return await bottom.Task;
            return count + await SumWithFinallyAsync(count - 1, bottom);
        }
        finally
        {
            s_finallies++;
        }
    }

    public static async Task<int> Main(string[] args)
    {
        int depth = int.Parse(args[0]);
        Console.WriteLine($"main thread: counted to {CountRecursivelyAsync(depth).Result}");
        Console.WriteLine($"thread pool: counted to {await Task.Run(() => CountRecursivelyAsync(depth))}");
        Console.WriteLine($"mutual: {depth} is even: {await IsEvenAsync(depth)}");

        var bottom = new TaskCompletionSource<int>();
        var sum = SumWithFinallyAsync(depth, bottom);
        bottom.SetResult(7);
        Console.WriteLine($"sum {await sum}, finally blocks run {s_finallies}");
        return 0;
    }
}
