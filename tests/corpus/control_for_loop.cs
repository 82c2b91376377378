// for loops with awaits in the body, the initializer, the condition and the increment; break and continue.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<bool> Check(int i, int limit)
    {
        if (Suspend) await Task.Yield();
        return i < limit;
    }

    static async Task<int> SumSquares(int n)
    {
        int sum = 0;
        for (int i = 0; i < n; i++)
        {
            sum += await Value(i * i);
        }
        return sum;
    }

    static async Task<string> BreakAndContinue()
    {
        var log = "";
        for (int i = await Value(0); await Check(i, 20); i += await Value(1))
        {
            if (i % 3 == 0) continue;
            if (await Value(i) > 10) break;
            log += i + ",";
        }
        return log;
    }

    static async Task<long> Nested(int rows, int cols)
    {
        long total = 0;
        for (int r = 0; r < rows; r++)
        {
            for (int c = 0; c < cols; c++)
            {
                if (c == r) continue;
                total = total * 3 + await Value(r * cols + c);
            }
        }
        return total;
    }

    static async Task<int> Countdown(int from)
    {
        int steps = 0;
        for (; from > 0; from -= 2)
        {
            await Value(from);
            steps++;
        }
        return steps * 100 + from;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine($"SumSquares(10) = {await SumSquares(10)}");
            Console.WriteLine($"BreakAndContinue = {await BreakAndContinue()}");
            Console.WriteLine($"Nested(4,5) = {await Nested(4, 5)}");
            Console.WriteLine($"Countdown(9) = {await Countdown(9)}");
            Console.WriteLine($"Countdown(0) = {await Countdown(0)}");
        }
    }
}
