// What a suspended method keeps alive through its ExecutionContext and through the registrations
// its awaits made: an AsyncLocal<Big> set before an await and cleared after it, set in a callee
// that returned, set in a callee that is itself suspended; a chain dropped at a WaitAsync with a
// long-lived token; a chain awaiting a SemaphoreSlim with a token after it completed. Driven by
// hand on the main thread with TaskCompletionSources, so every method waits at a known await.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class Big
{
    public readonly string Name;
    public readonly byte[] Payload = new byte[1000];
    public Big(string name) { Name = name; }
}

static class Program
{
    static bool Suspend;
    static readonly Dictionary<string, WeakReference> Weak = new();
    static readonly AsyncLocal<Big?> Current = new();
    static TaskCompletionSource First = new(), Second = new();
    static readonly CancellationTokenSource LongLived = new();
    static readonly SemaphoreSlim Gate = new(0);
    static readonly List<Task> Held = new();

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

    static Task Wait(TaskCompletionSource tcs) => Suspend ? tcs.Task : Task.CompletedTask;

    static async Task<int> SetAndCleared(string name)
    {
        Current.Value = Make(name);
        await Wait(First);
        int n = Current.Value!.Name.Length;
        Current.Value = null;
        await Second.Task;
        return n;
    }

    static async Task<int> SetsIt(string name)
    {
        await Wait(First);
        Current.Value = Make(name);
        return Current.Value.Name.Length;
    }

    static async Task<int> CalleeSet(string name)
    {
        int n = await SetsIt(name);
        await Second.Task;
        return n + (Current.Value is null ? 0 : 100);
    }

    static async Task<int> SetsThenWaits(string name)
    {
        Current.Value = Make(name);
        await Wait(First);
        Current.Value = null;
        await Second.Task;
        return 1;
    }

    static async Task<int> CalleeClearsThenWaits(string name) => await SetsThenWaits(name) + 1;

    static async Task<int> SetInLoop(string name)
    {
        for (int i = 0; i < 3; i++)
        {
            Current.Value = Make(name + i);
            await Wait(First).ConfigureAwait(false);
            Current.Value = null;
        }
        await Second.Task;
        return 3;
    }


    static async Task<int> Abandoned(string name, Task never)
    {
        var big = Make(name);
        await never.WaitAsync(LongLived.Token);
        return big.Name.Length;
    }

    static async Task<int> AbandonedFirstLocal(string name, Task never)
    {
        int n = Make(name).Name.Length;
        await never.WaitAsync(LongLived.Token);
        return n;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static Task<int> Start(string name, Func<string, Task<int>> start)
    {
        First = new();
        Second = new();
        var task = start(name);
        First.SetResult();
        return task;
    }

    static void Run(string name, Func<string, Task<int>> start, string watched)
    {
        var task = Start(name, start);
        Console.WriteLine($"{name}: waiting: {!task.IsCompleted}, {watched} alive: {Alive(watched)}");
        Second.SetResult();
        Console.WriteLine($"{name}: {task.Result}, asynclocal here: {Current.Value is null}");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void StartAbandoned(string name, Func<string, Task, Task<int>> start) => Held.Add(start(name, new TaskCompletionSource().Task));

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Run("set and cleared", SetAndCleared, "set and cleared");
            Run("callee set", CalleeSet, "callee set");
            Run("callee clears then waits", CalleeClearsThenWaits, "callee clears then waits");
            Run("set in loop", SetInLoop, "set in loop2");
            StartAbandoned("abandoned " + suspend, Abandoned);
            StartAbandoned("abandoned first " + suspend, AbandonedFirstLocal);
            Console.WriteLine($"abandoned on a long-lived token: alive {Alive("abandoned " + suspend)}, first local {Alive("abandoned first " + suspend)}");
        }
        Held.Clear();
        Console.WriteLine($"after the holders dropped their tasks: {Alive("abandoned True")}, {Alive("abandoned first True")}");
    }
}
