// while and do/while loops with awaits in the body and in the condition, nested, with break/continue.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static int polls;

    static async Task<int> Next(int v)
    {
        if (Suspend) await Task.Yield();
        return v + 1;
    }

    static async Task<bool> Poll(int limit)
    {
        polls++;
        if (Suspend) await Task.Delay(1);
        return polls <= limit;
    }

    static async Task<int> WhileBody(int limit)
    {
        int i = 0, acc = 0;
        while (i < limit)
        {
            i = await Next(i);
            if (i == 3) continue;
            acc += i;
        }
        return acc;
    }

    static async Task<int> WhileCondition()
    {
        polls = 0;
        int iterations = 0;
        while (await Poll(5))
        {
            iterations++;
        }
        return iterations * 10 + polls;
    }

    static async Task<string> DoWhile(int start)
    {
        var log = "";
        int x = start;
        do
        {
            log += x + ";";
            x = await Next(x) * 2;
        } while (x < 50 && await Next(x) != 31);
        return log + "end=" + x;
    }

    static async Task<int> DoWhileOnce()
    {
        int count = 0;
        do
        {
            count = await Next(count);
        } while (false);
        return count;
    }

    static async Task<string> NestedWhile()
    {
        var log = "";
        int outer = 0;
        while (outer < 4)
        {
            int inner = 0;
            do
            {
                inner = await Next(inner);
                if (inner == 2 && outer == 1) break;
            } while (inner < outer + 1);
            log += $"{outer}:{inner} ";
            outer = await Next(outer);
        }
        return log.Trim();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine($"WhileBody(6) = {await WhileBody(6)}");
            Console.WriteLine($"WhileCondition = {await WhileCondition()}");
            Console.WriteLine($"DoWhile(1) = {await DoWhile(1)}");
            Console.WriteLine($"DoWhile(100) = {await DoWhile(100)}");
            Console.WriteLine($"DoWhileOnce = {await DoWhileOnce()}");
            Console.WriteLine($"NestedWhile = {await NestedWhile()}");
        }
    }
}
