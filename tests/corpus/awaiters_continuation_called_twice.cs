// A buggy awaiter that invokes the continuation it was given twice (queued twice to a pump),
// after which the method completes synchronously, or suspends again on a well-behaved awaiter;
// and a leaf with several frames above it. Classic async's second call reaches a completed state
// machine box. The rewritten chain ignores the second call as classic does.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

static class Pump
{
    public static readonly Queue<Action> Q = new();
    public static readonly List<string> Log = new();
    public static void Run(Task t, string title)
    {
        int steps = 0;
        while (Q.Count > 0)
        {
            steps++;
            var a = Q.Dequeue();
            // What the second call throws is not checked: nothing from classic's Release build (a
            // completed state machine box), a NullReferenceException from its Debug build.
            try { a(); } catch (Exception) { }
        }
        Log.Add($"steps={steps} status={t.Status}");
        if (t.IsFaulted) Log.Add("error " + t.Exception!.InnerException!.GetType().Name + ": " + t.Exception.InnerException.Message);
        else if (t is Task<int> ti && t.IsCompletedSuccessfully) Log.Add("result " + ti.Result);
        Console.WriteLine(title + ": " + string.Join(" | ", Log));
        Log.Clear();
    }
}

sealed class Twice : ICriticalNotifyCompletion
{
    private readonly int value;
    public Twice(int value) => this.value = value;
    public Twice GetAwaiter() => this;
    public bool IsCompleted => false;
    public void OnCompleted(Action c) => UnsafeOnCompleted(c);
    public void UnsafeOnCompleted(Action c) { Pump.Q.Enqueue(c); Pump.Q.Enqueue(c); }
    public int GetResult() { Pump.Log.Add("twice.GetResult " + value); return value; }
}

sealed class Once : ICriticalNotifyCompletion
{
    private readonly int value;
    public Once(int value) => this.value = value;
    public Once GetAwaiter() => this;
    public bool IsCompleted => false;
    public void OnCompleted(Action c) => UnsafeOnCompleted(c);
    public void UnsafeOnCompleted(Action c) => Pump.Q.Enqueue(c);
    public int GetResult() { Pump.Log.Add("once.GetResult " + value); return value; }
}

static class Program
{
    static async Task<int> ThenComplete()
    {
        int v = await new Twice(1);
        Pump.Log.Add("after twice " + v);
        return v + 1;
    }

    static async Task<int> Caller()
    {
        int v = await ThenComplete();
        Pump.Log.Add("caller got " + v);
        return v * 10;
    }

    static async Task<int> Top()
    {
        int v = await Caller();
        Pump.Log.Add("top got " + v);
        return v + 5;
    }

    static void Main()
    {
        Pump.Run(ThenComplete(), "alone");
        Pump.Run(Top(), "chain");
    }
}
