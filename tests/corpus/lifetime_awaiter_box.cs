// What a suspended method keeps alive of an await it already resumed from: a loop awaiting a
// configured Task<Big> (or a Task-backed ValueTask<Big>) suspends twice at the same await, then
// waits at a different await (a plain Task, a custom awaiter). Classic async clears its awaiter
// field on resumption, so the last Big the loop read is collectible while the method waits there.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

sealed class Big
{
    public readonly string Name;
    public readonly byte[] Payload = new byte[1000];
    public Big(string name) { Name = name; }
}

/// <summary>A hand-driven awaiter (not a Task's): completes when Release is called.</summary>
sealed class Signal
{
    private Action? _continuation;
    private bool _done;
    public Awaiter GetAwaiter() => new(this);
    public void Release()
    {
        _done = true;
        var c = _continuation;
        _continuation = null;
        c?.Invoke();
    }
    public readonly struct Awaiter(Signal signal) : ICriticalNotifyCompletion
    {
        public bool IsCompleted => signal._done;
        public void GetResult() { }
        public void OnCompleted(Action continuation) => signal._continuation = continuation;
        public void UnsafeOnCompleted(Action continuation) => signal._continuation = continuation;
    }
}

static class Program
{
    static bool Suspend;
    static readonly Dictionary<string, WeakReference> Weak = new();
    static TaskCompletionSource<Big>?[] Loads = new TaskCompletionSource<Big>?[3];
    static TaskCompletionSource Last = new();
    static Signal LastSignal = new();

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

    [MethodImpl(MethodImplOptions.NoInlining)]
    static Task<Big> Load(string name, int i) => Suspend ? Loads[i]!.Task : Task.FromResult(Make(name + i));

    static async Task<int> ConfiguredThenTask(string name)
    {
        int sum = 0;
        for (int i = 0; i < 3; i++)
        {
            Big big = await Load(name, i).ConfigureAwait(false);
            sum += big.Name.Length;
        }
        await Last.Task;
        return sum;
    }

    static async Task<int> ValueTaskThenTask(string name)
    {
        int sum = 0;
        for (int i = 0; i < 3; i++)
        {
            Big big = await new ValueTask<Big>(Load(name, i));
            sum += big.Name.Length;
        }
        await Last.Task;
        return sum;
    }

    static async Task<int> ConfiguredThenAwaiter(string name)
    {
        int sum = 0;
        for (int i = 0; i < 3; i++)
        {
            Big big = await Load(name, i).ConfigureAwait(false);
            sum += big.Name.Length;
        }
        await LastSignal;
        return sum;
    }

    static async Task<int> Inner(string name)
    {
        int sum = 0;
        for (int i = 0; i < 3; i++)
            sum += (await Load(name, i).ConfigureAwait(false)).Name.Length;
        return sum;
    }

    static async Task Flush() => await Last.Task;

    static async Task<int> CallerThenCallee(string name)
    {
        int n = await Inner(name);
        await Flush();
        return n;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void Complete(string name, int i)
    {
        var load = Loads[i]!;
        Loads[i] = null;
        load.SetResult(Make(name + i));
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static Task<int> Start(string name, Func<string, Task<int>> start)
    {
        for (int i = 0; i < Loads.Length; i++)
            Loads[i] = new TaskCompletionSource<Big>();
        Last = new TaskCompletionSource();
        LastSignal = new Signal();
        var task = start(name);
        if (Suspend)
            for (int i = 0; i < Loads.Length; i++)
                Complete(name, i);
        return task;
    }

    static void Run(string name, Func<string, Task<int>> start)
    {
        var task = Start(name, start);
        Console.WriteLine($"{name}: waiting at the last await: {!task.IsCompleted}, last Big alive: {Alive(name + "2")}, first: {Alive(name + "0")}");
        Last.SetResult();
        LastSignal.Release();
        Console.WriteLine($"{name}: {task.Result}");
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Run("configured", ConfiguredThenTask);
            Run("valuetask", ValueTaskThenTask);
            Run("awaiter", ConfiguredThenAwaiter);
            Run("callee", CallerThenCallee);
        }
    }
}
