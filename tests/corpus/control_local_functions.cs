// async local functions: static ones, ones capturing locals and parameters of the enclosing async
// method (which live in a closure shared with it and are mutated on both sides of awaits), ones
// capturing `this` in an instance method, recursive local functions, and local functions called
// before and after the enclosing method's own suspension.
using System;
using System.Threading.Tasks;

sealed class Tally
{
    private int count;

    public async Task<string> Run(int rounds)
    {
        string trail = "";
        async Task Bump(int by)
        {
            if (Program.Suspend) await Task.Yield();
            count += by;
            trail += by;
        }

        for (int i = 1; i <= rounds; i++)
        {
            await Bump(i);
            trail += ",";
        }
        return $"count={count} trail={trail}";
    }
}

static class Program
{
    public static bool Suspend;

    static async Task<string> Captures(int start)
    {
        int total = start;
        string log = "";

        async Task<int> Add(int v)
        {
            if (Suspend) await Task.Delay(1);
            total += v;
            log += "+" + v;
            return total;
        }

        static async Task<int> Pure(int v)
        {
            if (Suspend) await Task.Yield();
            return v * 100;
        }

        async Task<long> Factorial(int n) => n <= 1 ? 1 : n * await Factorial(n - 1);

        int first = await Add(1);
        total *= 2;
        int second = await Add(await Pure(3));
        start = -start;
        long fact = await Factorial(10);
        log += "|" + start;
        return $"{first} {second} {total} {fact} {log}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Captures(5));
            Console.WriteLine(await new Tally().Run(4));
        }
    }
}
