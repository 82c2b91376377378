// Async lambdas assigned to Func<Task>, Func<Task<int>>, Func<T, ValueTask<U>>, Func<ValueTask>,
// Action-free shapes only (async void is not compared), static lambdas, lambdas with several
// parameters, lambdas returned from methods and invoked later, and delegates stored in a dictionary
// and invoked through Invoke with the result awaited.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static Func<int, ValueTask<string>> MakeFormatter(string prefix) => async n =>
    {
        await Pause();
        return prefix + n;
    };

    static async Task<TOut> Apply<TIn, TOut>(TIn input, Func<TIn, ValueTask<TOut>> f) => await f(input);

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");

            Func<Task> noResult = async () =>
            {
                await Pause();
                Console.WriteLine("  Func<Task> ran");
            };
            await noResult();

            Func<Task<int>> answer = static async () =>
            {
                await Pause();
                return 42;
            };
            Console.WriteLine($"Func<Task<int>>: {await answer()}");

            Func<ValueTask> vt = async () => await Pause();
            await vt();
            Console.WriteLine("Func<ValueTask> done");

            Func<int, ValueTask<double>> half = async x =>
            {
                if (x % 2 == 1) await Pause();
                return x / 2.0;
            };
            Console.WriteLine($"half: {await half(3)} {await half(4)}");
            Console.WriteLine($"apply: {await Apply(5, half)} {await Apply("abc", async s => { await Pause(); return s.Length; })}");

            Func<int, string, long, Task<string>> three = async (a, b, c) =>
            {
                await Pause();
                return $"{a}{b}{c}";
            };
            Console.WriteLine($"three: {await three(1, "-", 3L)}");

            var formatter = MakeFormatter("#");
            Console.WriteLine($"returned lambda: {await formatter(7)} {await MakeFormatter("n=")(8)}");

            var table = new Dictionary<string, Func<int, Task<int>>>
            {
                ["square"] = async x => { await Pause(); return x * x; },
                ["negate"] = async x => -x,
                ["fail"] = async x => { await Pause(); throw new InvalidOperationException($"fail({x})"); },
            };
            foreach (var (name, f) in table)
            {
                try
                {
                    Console.WriteLine($"{name}: {await f.Invoke(6)}");
                }
                catch (InvalidOperationException e)
                {
                    Console.WriteLine($"{name} threw {e.Message}");
                }
            }
        }
    }
}
