// One interface implemented by rewritten classes and by classic ones ([RuntimeAsyncMethodGeneration(false)]
// keeps a method classic in the runtime-async build), plus a non-async implementation returning
// tasks by hand; a rewritten caller iterates them all through the interface, and implementations
// delegate to each other across models (a decorator chain alternating rewritten and classic).
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

interface IStep
{
    Task<int> Apply(int value);
    ValueTask<string> Describe();
}

sealed class AddStep(int amount) : IStep
{
    public async Task<int> Apply(int value)
    {
        await Program.Pause();
        return value + amount;
    }

    public async ValueTask<string> Describe() => $"+{amount}";
}

sealed class ClassicMultiply(int factor) : IStep
{
    [RuntimeAsyncMethodGeneration(false)]
    public async Task<int> Apply(int value)
    {
        await Program.Pause();
        return value * factor;
    }

    [RuntimeAsyncMethodGeneration(false)]
    public async ValueTask<string> Describe()
    {
        await Program.Pause();
        return $"*{factor}";
    }
}

sealed class HandMade : IStep
{
    public Task<int> Apply(int value)
    {
        if (!Program.Suspend)
            return Task.FromResult(-value);
        var tcs = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        ThreadPool.QueueUserWorkItem(_ => tcs.SetResult(-value));
        return tcs.Task;
    }

    public ValueTask<string> Describe() => new("neg");
}

sealed class Logged(IStep inner) : IStep
{
    public async Task<int> Apply(int value)
    {
        int result = await inner.Apply(value);
        Console.WriteLine($"  {await inner.Describe()}: {value} -> {result}");
        return result;
    }

    public async ValueTask<string> Describe() => "logged " + await inner.Describe();
}

sealed class ClassicGuard(IStep inner) : IStep
{
    [RuntimeAsyncMethodGeneration(false)]
    public async Task<int> Apply(int value)
    {
        if (value > 1000) throw new OverflowException($"{value} is too large");
        return await inner.Apply(value);
    }

    [RuntimeAsyncMethodGeneration(false)]
    public async ValueTask<string> Describe() => "guarded " + await inner.Describe();
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<int> RunAll(IEnumerable<IStep> steps, int value)
    {
        foreach (var step in steps)
            value = await step.Apply(value);
        return value;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var steps = new List<IStep>
            {
                new Logged(new AddStep(3)),
                new Logged(new ClassicMultiply(4)),
                new ClassicGuard(new Logged(new HandMade())),
                new Logged(new ClassicGuard(new AddStep(100))),
            };
            foreach (var s in steps)
                Console.WriteLine(await s.Describe());
            Console.WriteLine($"result {await RunAll(steps, 2)}");
            try
            {
                await RunAll(new IStep[] { new ClassicMultiply(2000), new ClassicGuard(new AddStep(1)) }, 1);
            }
            catch (OverflowException e)
            {
                Console.WriteLine($"caught {e.GetType().Name}: {e.Message}");
            }
        }
    }
}
