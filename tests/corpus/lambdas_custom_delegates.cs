// Async lambdas and methods bound to custom delegate types: a non-generic delegate returning
// Task<int>, a generic delegate with constraints, a delegate returning ValueTask with an optional
// parameter, a delegate with a params array, a multicast Func<Task> (the last task is returned),
// and delegates created from async instance and static methods with Delegate.CreateDelegate.
using System;
using System.Reflection;
using System.Threading.Tasks;

delegate Task<int> Combiner(int a, int b);
delegate Task<TResult> Mapper<in T, TResult>(T input) where TResult : notnull;
delegate ValueTask Logger(string message, int level = 1);
delegate Task<string> Joiner(params string[] parts);

sealed class Calculator
{
    public int Offset;
    public async Task<int> AddWithOffset(int a, int b)
    {
        await Program.Pause();
        return a + b + Offset;
    }
    public static async Task<int> Multiply(int a, int b)
    {
        await Program.Pause();
        return a * b;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<int> Fold(Combiner c, params int[] values)
    {
        int acc = values[0];
        for (int i = 1; i < values.Length; i++)
            acc = await c(acc, values[i]);
        return acc;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");

            Combiner max = async (a, b) => { await Pause(); return Math.Max(a, b); };
            Console.WriteLine($"max fold: {await Fold(max, 3, 9, 4)}");
            var calc = new Calculator { Offset = 100 };
            Console.WriteLine($"instance fold: {await Fold(calc.AddWithOffset, 1, 2, 3)}");
            Console.WriteLine($"static fold: {await Fold(Calculator.Multiply, 2, 3, 4)}");

            Mapper<object, string> describe = async o => { await Pause(); return $"<{o}>"; };
            Mapper<string, string> narrowed = describe; // contravariance in T
            Console.WriteLine($"mapper: {await narrowed("x")} {await describe(5)}");

            string log = "";
            Logger logger = async (m, level) => { await Pause(); log += $"[{level}]{m} "; };
            await logger("a");
            await logger("b", 3);
            Console.WriteLine($"logger: {log}");

            Joiner join = async parts => { await Pause(); return string.Join("+", parts); };
            Console.WriteLine($"joiner: {await join("x", "y", "z")} {await join()}");

            int order = 0;
            Func<Task<int>> multicast = async () => { int mine = ++order; await Pause(); return mine * 10; };
            multicast += async () => ++order * 100;
            Console.WriteLine($"multicast returns the last: {await multicast()} order={order}");

            var bound = (Combiner)Delegate.CreateDelegate(typeof(Combiner), calc, typeof(Calculator).GetMethod(nameof(Calculator.AddWithOffset))!);
            var open = (Func<Calculator, int, int, Task<int>>)Delegate.CreateDelegate(typeof(Func<Calculator, int, int, Task<int>>),
                typeof(Calculator).GetMethod(nameof(Calculator.AddWithOffset))!);
            Console.WriteLine($"CreateDelegate: {await bound(1, 1)} {await open(new Calculator { Offset = 1 }, 2, 2)}");
        }
    }
}
