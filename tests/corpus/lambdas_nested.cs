// Nested async lambdas: a lambda that awaits another lambda defined inside it, a lambda returning
// an async lambda (Func<Task<Func<int, Task<int>>>>), closures at three scope levels each captured by
// the innermost lambda, and exceptions thrown in an inner lambda after suspension caught by an outer
// one.
using System;
using System.Threading.Tasks;

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Levels(int a)
    {
        int outer = a;
        Func<int, Task<string>> level1 = async b =>
        {
            int middle = b + outer;
            await Pause();
            Func<int, Task<string>> level2 = async c =>
            {
                await Pause();
                outer++;
                middle += 10;
                return $"{outer}/{middle}/{c}";
            };
            var first = await level2(1);
            var second = await level2(2);
            return $"{first} {second} middle={middle}";
        };
        var r = await level1(100);
        return $"{r} outer={outer}";
    }

    static async Task<Func<int, Task<int>>> MakeAdder(int baseValue)
    {
        await Pause();
        int calls = 0;
        return async x =>
        {
            calls++;
            await Pause();
            return baseValue + x + calls;
        };
    }

    static async Task<string> Faults()
    {
        Func<Task<int>> outer = async () =>
        {
            Func<int, Task<int>> inner = async k =>
            {
                await Pause();
                if (k > 2) throw new ArgumentException($"k={k} too big");
                return k;
            };
            int sum = 0;
            for (int k = 1; k < 5; k++)
            {
                try
                {
                    sum += await inner(k);
                }
                catch (ArgumentException e)
                {
                    sum += 100;
                    Console.WriteLine($"  inner threw: {e.Message}");
                    if (k == 4) throw new InvalidOperationException("giving up", e);
                }
            }
            return sum;
        };
        try
        {
            return $"sum {await outer()}";
        }
        catch (InvalidOperationException e)
        {
            return $"outer threw {e.Message} (inner: {e.InnerException!.Message})";
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Levels(1));
            var adder = await MakeAdder(1000);
            Console.WriteLine($"{await adder(1)} {await adder(2)}");
            Func<Task<Func<int, Task<int>>>> factory = async () => await MakeAdder(5);
            Console.WriteLine(await (await factory())(5));
            Console.WriteLine(await Faults());
        }
    }
}
