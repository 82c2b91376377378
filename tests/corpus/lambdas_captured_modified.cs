// Captured variables modified after an await: a counter shared by several async lambdas and the
// enclosing async method, each writing it after suspending; a captured parameter reassigned in the
// enclosing method after the lambda was created; captured structs mutated through the closure; and
// a lambda that captures a variable declared after an await in the enclosing method.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

struct Box
{
    public int Value;
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> SharedCounter()
    {
        int counter = 0;
        var seen = new List<string>();
        Func<int, Task> bump = async by =>
        {
            seen.Add($"before {counter}");
            await Pause();
            counter += by;
            seen.Add($"after {counter}");
        };
        await bump(1);
        counter *= 10;
        await Pause();
        await bump(2);
        counter++;
        return $"{counter}: {string.Join(", ", seen)}";
    }

    static async Task<string> ReassignedParameter(string name)
    {
        Func<Task<string>> greet = async () =>
        {
            await Pause();
            return "hello " + name;
        };
        var first = await greet();
        name = name.ToUpperInvariant();   // the lambda sees the parameter's new value
        await Pause();
        var second = await greet();
        return $"{first} / {second}";
    }

    static async Task<string> CapturedStruct()
    {
        var box = new Box { Value = 1 };
        Func<Task<int>> grow = async () =>
        {
            box.Value *= 3;
            await Pause();
            box.Value += 1;
            return box.Value;
        };
        int a = await grow();
        box.Value -= 2;
        int b = await grow();
        return $"{a} {b} {box.Value}";
    }

    static async Task<string> DeclaredAfterAwait(int n)
    {
        await Pause();
        int late = n * 2;
        var list = new List<Func<Task<int>>>();
        for (int i = 0; i < 2; i++)
            list.Add(async () => { await Pause(); return late++; });
        int x = await list[0]();
        int y = await list[1]();
        return $"{x} {y} {late}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await SharedCounter());
            Console.WriteLine(await ReassignedParameter("ada"));
            Console.WriteLine(await CapturedStruct());
            Console.WriteLine(await DeclaredAfterAwait(5));
        }
    }
}
