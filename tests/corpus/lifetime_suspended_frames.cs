// What a suspended method keeps reachable while it waits at its second await, after it ran on from
// the first: a block-scoped local whose block ended before the second await (classic async clears
// its hoisted field as the block ends), a local of the loop's previous iteration, the same in a
// callee awaited by another method, a struct holding a reference, and a chain abandoned on a
// TaskCompletionSource that is then dropped. Driven by hand with TaskCompletionSources on the main
// thread, so each method waits at a known await when the GC runs.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

sealed class Big
{
    public readonly string Name;
    public Big(string name) { Name = name; }
}

struct Holder
{
    public Big Big;
    public int Count;
}

static class Program
{
    static readonly Dictionary<string, WeakReference> Weak = new();
    static TaskCompletionSource First = new(), Second = new();

    [MethodImpl(MethodImplOptions.NoInlining)]
    static Big Make(string name)
    {
        var big = new Big(name);
        Weak[name] = new WeakReference(big);
        return big;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static bool Alive(string name)
    {
        for (int i = 0; i < 3; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
        return Weak[name].IsAlive;
    }

    static async Task<int> BlockScoped(string name)
    {
        int length;
        {
            var big = Make(name);
            await First.Task;
            length = big.Name.Length;
        }
        await Second.Task;
        return length;
    }

    static async Task<int> StructHolder(string name)
    {
        int count;
        {
            var holder = new Holder { Big = Make(name), Count = 2 };
            await First.Task;
            count = holder.Count + holder.Big.Name.Length;
        }
        await Second.Task;
        return count;
    }

    static async Task<int> LoopScoped(string name)
    {
        int sum = 0;
        for (int i = 0; i < 2; i++)
        {
            var big = Make(name + i);
            await (i == 0 ? First.Task : Second.Task);
            sum += big.Name.Length;
        }
        return sum;
    }

    static async Task<int> Caller(string name)
    {
        int inner = await BlockScoped(name + " (callee)");
        return inner + 1;
    }

    static async Task<int> Abandoned(string name, Task never)
    {
        var big = Make(name);
        await never;
        return big.Name.Length;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void StartAbandoned(string name) => _ = Abandoned(name, new TaskCompletionSource().Task);

    static void Report(string when, string name) => Console.WriteLine($"{when}: {name} alive: {Alive(name)}");

    static void Run(string name, Func<string, Task<int>> start, string watched)
    {
        First = new();
        Second = new();
        var task = start(name);
        Report("at the first await", watched);
        First.SetResult();
        Report("at the second await", watched);
        Second.SetResult();
        Console.WriteLine($"{name}: {task.Result}");
    }

    static void Main()
    {
        Run("block", BlockScoped, "block");
        Run("struct", StructHolder, "struct");
        Run("loop", LoopScoped, "loop0");
        Run("caller", Caller, "caller (callee)");
        StartAbandoned("abandoned");
        Report("dropped", "abandoned");
    }
}
