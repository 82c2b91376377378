// What a completed Task keeps alive while something holds it (a cache, a field): classic async's
// builder clears its state machine when the method completes, so only the result stays reachable,
// not the method's locals. Each method here keeps a Big across its awaits and completes; the check
// is whether the Big is still alive while the Task is held. The paths differ in how the method
// suspended: once at a Task, twice at the same ConfigureAwait(false) await, twice at the same
// ValueTask source, and under a SynchronizationContext while its callee resumed off it. Driven by
// hand (TaskCompletionSources, a ValueTask source completed inline, one loop thread), so every
// method is at a known await when it resumes. Then a memoizing cache of 200 loads polling with
// Task.Delay(1).ConfigureAwait(false), each holding a 64 KB buffer: the cache must not hold them.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

sealed class Big
{
    public readonly string Name;
    public readonly byte[] Payload = new byte[1000];
    public Big(string name) { Name = name; }
}

/// <summary>A reusable ValueTask source completed by hand, inline, as a channel or a socket's is.</summary>
sealed class ManualSource : IValueTaskSource<int>
{
    private ManualResetValueTaskSourceCore<int> _core;

    public ValueTask<int> Next()
    {
        _core.Reset();
        return new ValueTask<int>(this, _core.Version);
    }

    public void Complete(int value) => _core.SetResult(value);
    public int GetResult(short token) => _core.GetResult(token);
    public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);
    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);
}

static class Program
{
    static bool Suspend;
    static readonly Dictionary<string, WeakReference> Weak = new();
    static readonly Dictionary<string, Task> Held = new();
    static readonly List<TaskCompletionSource> Gates = new();
    static readonly ManualSource Source = new();

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

    static Task Gate(int i) => Suspend ? Gates[i].Task : Task.CompletedTask;

    static void OpenGates()
    {
        foreach (var gate in Gates)
            gate.TrySetResult();
    }

    static async Task<int> Plain(string name)
    {
        var big = Make(name);
        await Gate(0);
        return big.Name.Length;
    }

    static async Task<int> Throws(string name)
    {
        var big = Make(name);
        await Gate(0);
        throw new InvalidOperationException("thrown by " + big.Name);
    }

    static async Task<int> ConfiguredLoop(string name)
    {
        var big = Make(name);
        for (int i = 0; i < 3; i++)
            await Gate(i).ConfigureAwait(false);
        return big.Name.Length;
    }

    static async Task<int> SourceLoop(string name)
    {
        var big = Make(name);
        int sum = 0;
        for (int i = 0; i < 3; i++)
            sum += await Source.Next();
        return sum + big.Name.Length;
    }

    static async Task<int> Caller(string name)
    {
        var big = Make(name);
        int inner = await ConfiguredLoop(name + " (callee)");
        return inner + big.Name.Length;
    }

    static async Task<int> OffTheLoop()
    {
        await Gate(0).ConfigureAwait(false);
        return 1;
    }

    static async Task<int> OnTheLoop(string name)
    {
        var big = Make(name);
        int r = await OffTheLoop();
        return r + big.Name.Length;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void Hold(string name, Func<Task> start)
    {
        var task = start();
        OpenGates();
        try { task.Wait(); } catch (AggregateException) { }
        Held[name] = task;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void HoldSourceLoop(string name)
    {
        var task = SourceLoop(name);
        for (int i = 1; i <= 3; i++)
            Source.Complete(i);
        Held[name] = task;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void HoldOnLoop(string name)
    {
        var loop = new SingleThreadLoop();
        Task<int>? task = null;
        loop.Send(_ => task = OnTheLoop(name), null);
        OpenGates();
        task!.Wait();
        loop.Send(_ => { }, null);
        loop.Stop();
        Held[name] = task;
    }

    const int BufferSize = 64 * 1024;
    static readonly ConcurrentDictionary<int, Task<long>> Cache = new();

    static async Task<long> LoadAsync(int key)
    {
        var raw = new byte[BufferSize];
        raw[0] = (byte)key;
        for (int attempt = 0; attempt < 2; attempt++)
            await Task.Delay(1).ConfigureAwait(false);
        return raw[0];
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static long Fill(int count)
    {
        var tasks = Enumerable.Range(0, count).Select(key => Cache.GetOrAdd(key, LoadAsync)).ToArray();
        Task.WaitAll(tasks);
        return tasks.Sum(task => task.Result);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static long Settled()
    {
        for (int i = 0; i < 3; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
        return GC.GetTotalMemory(true);
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Weak.Clear();
            Held.Clear();
            Gates.Clear();
            for (int i = 0; i < 3; i++)
                Gates.Add(new TaskCompletionSource());
            Console.WriteLine($"-- suspend={suspend}");
            Hold("plain", () => Plain("plain"));
            Hold("throws", () => Throws("throws"));
            Hold("configured loop", () => ConfiguredLoop("configured loop"));
            Hold("caller", () => Caller("caller"));
            HoldSourceLoop("source loop");
            HoldOnLoop("on the loop");
            foreach (var name in new[] { "plain", "throws", "configured loop", "caller", "caller (callee)", "source loop", "on the loop" })
            {
                var task = Held[name.Replace(" (callee)", "")];
                Console.WriteLine($"{name}: {task.Status}, its Big alive while the task is held: {Alive(name)}");
            }
        }

        const int Count = 200;
        long before = Settled();
        long sum = Fill(Count);
        long after = Settled();
        Console.WriteLine($"cache of {Cache.Count} loads, checksum {sum}, holds their buffers: {after - before > Count * BufferSize / 4}");
        GC.KeepAlive(Cache);
    }
}
