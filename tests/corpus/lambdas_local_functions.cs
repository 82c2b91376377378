// Async local functions: static ones, capturing ones (closure as a struct display class passed by
// reference when no lambda needs it on the heap; C# puts it on the heap for async local functions),
// recursive, generic, local functions calling each other, one capturing a variable the enclosing
// method changes after an await, and a local function converted to a delegate.
using System;
using System.Threading.Tasks;

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Run(int n)
    {
        int calls = 0;
        string suffix = "!";

        static async Task<int> Square(int x)
        {
            await Pause();
            return x * x;
        }

        async Task<int> Fib(int k)
        {
            calls++;
            if (k < 2) return k;
            if (k % 3 == 0) await Pause();
            return await Fib(k - 1) + await Fib(k - 2);
        }

        async Task<string> Tag<T>(T value)
        {
            await Pause();
            return $"{typeof(T).Name}:{value}{suffix}";
        }

        async ValueTask<bool> IsEven(int k) => k == 0 || await IsOdd(k - 1);
        async ValueTask<bool> IsOdd(int k) => k != 0 && await IsEven(k - 1);

        var sq = await Square(n);
        var fib = await Fib(n);
        var t1 = await Tag(sq);
        suffix = "?";            // the next call sees the new value
        await Pause();
        var t2 = await Tag("fib" + fib);
        Func<int, Task<int>> asDelegate = Square;
        Func<double, Task<string>> generic = Tag;
        return $"{t1} {t2} calls={calls} even={await IsEven(n)} delegate={await asDelegate(3)} {await generic(1.5)}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Run(6));
            Console.WriteLine(await Run(7));
        }
    }
}
