// Async methods carrying attributes that real code puts on them: a method-level
// [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))] (the classic build uses that
// builder; the runtime-async build ignores it and emits the method runtime-async, so Async2 rewrites
// it), [MethodImpl(NoInlining)],
// [MethodImpl(AggressiveInlining)], [MethodImpl(AggressiveOptimization)], [DebuggerStepThrough],
// [DebuggerHidden] and [Obsolete], called from rewritten code on both paths, including virtual
// overrides whose attributes differ from the base's.
using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

class Worker
{
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<int> Pooled(int x)
    {
        await Program.Pause();
        return x * 2;
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask PooledVoid(int[] box)
    {
        await Program.Pause();
        box[0]++;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public async Task<int> NotInlined(int x)
    {
        await Program.Pause();
        return x + 1;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public async Task<int> Inlined(int x) => x + 2;

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public virtual async Task<int> Optimized(int x)
    {
        int sum = 0;
        for (int i = 0; i < x; i++)
        {
            if (i == x / 2) await Program.Pause();
            sum += i;
        }
        return sum;
    }

    [DebuggerStepThrough]
    public async Task<string> StepThrough(string s)
    {
        await Program.Pause();
        return s + s;
    }

    [DebuggerHidden]
    public async Task<string> Hidden(string s) => await StepThrough(s) + "!";

    [Obsolete("use something else")]
    public async Task<int> Old() => await NotInlined(41);
}

sealed class FastWorker : Worker
{
    [MethodImpl(MethodImplOptions.NoInlining)]
    public override async Task<int> Optimized(int x)
    {
        await Program.Pause();
        return await base.Optimized(x) * 10;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

#pragma warning disable CS0618
    static async Task<string> All(Worker w)
    {
        var box = new int[1];
        await w.PooledVoid(box);
        await w.PooledVoid(box);
        return $"{await w.Pooled(5)} {box[0]} {await w.NotInlined(1)} {await w.Inlined(1)} {await w.Optimized(6)} {await w.StepThrough("a")} {await w.Hidden("b")} {await w.Old()}";
    }
#pragma warning restore CS0618

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await All(new Worker()));
            Console.WriteLine(await All(new FastWorker()));
        }
    }
}
