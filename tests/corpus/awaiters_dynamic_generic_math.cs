// await on dynamic values (a Task, Task.Yield, an awaitable whose awaiter has only OnCompleted), generic
// math through static abstract interface members (T.Zero, operators, CreateChecked) across awaits,
// and PeriodicTimer's ValueTask<bool> ticks, including after the timer is disposed.
using System;
using System.Collections.Generic;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class OddAwaitable
{
    public readonly int Value;
    public OddAwaitable(int value) => Value = value;
    public OddAwaiter GetAwaiter() => new(this);
}

// Only INotifyCompletion: a dynamic await must register through OnCompleted.
sealed class OddAwaiter(OddAwaitable owner) : INotifyCompletion
{
    public bool IsCompleted => false;
    public void OnCompleted(Action continuation) => ThreadPool.QueueUserWorkItem(_ => continuation());
    public int GetResult() => owner.Value * 10;
}

static class Program
{
    static bool s_suspend;
    static async Task<int> Val(int x) { if (s_suspend) await Task.Yield(); return x; }

    static async Task<T> Sum<T>(IEnumerable<T> values) where T : INumber<T>
    {
        T total = T.Zero;
        foreach (var value in values)
        {
            if (s_suspend) await Task.Yield();
            total += value * T.CreateChecked(await Val(2));
        }
        return total;
    }

    static async Task<T> MaxOf<T>(T a, Task<T> b) where T : IComparisonOperators<T, T, bool> => a > await b ? a : await b;

    static async Task<string> Dynamic()
    {
        dynamic task = Val(7);
        int a = await task;
        dynamic odd = new OddAwaitable(3);
        int b = await odd;
        dynamic yielded = Task.Yield();
        await yielded;
        object boxed = await (dynamic)Task.FromResult("s");
        return $"{a} {b} {boxed}";
    }

    static async Task<int> Ticks()
    {
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(2));
        int ticks = 0;
        while (ticks < 3 && await timer.WaitForNextTickAsync())
            ticks += await Val(1);
        timer.Dispose();
        return ticks + (await timer.WaitForNextTickAsync() ? 100 : 0);
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}: {await Sum(new[] { 1, 2, 3 })} {await Sum(new[] { 1.5, 2.5 })} {await Sum(new decimal[] { 1.1m })} "
                + $"{await MaxOf(3, Val(5))} {await MaxOf(4.5, Task.FromResult(1.0))} {await Dynamic()} {await Ticks()}");
        }
    }
}
