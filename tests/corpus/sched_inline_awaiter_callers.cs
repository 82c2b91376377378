// A custom awaiter that reports IsCompleted false but runs the continuation at once inside
// OnCompleted (the operation finished in between, as racy real-world awaiters do): classic async's
// callers have not suspended yet, find the callee's Task completed and go on synchronously, without
// being posted back to the loop context they captured (behind work queued meanwhile).
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class Loop : SynchronizationContext
{
    private readonly Queue<(SendOrPostCallback, object?)> _q = new();
    public int Posted;
    public override void Post(SendOrPostCallback d, object? s) { Posted++; _q.Enqueue((d, s)); }
    public void Pump()
    {
        SetSynchronizationContext(this);
        while (_q.Count > 0) { var (d, s) = _q.Dequeue(); d(s); }
        SetSynchronizationContext(null);
    }
}

readonly struct LateAwaitable
{
    public Awaiter GetAwaiter() => new();
    public readonly struct Awaiter : INotifyCompletion
    {
        public bool IsCompleted => false;
        public void OnCompleted(Action continuation) => continuation(); // finished meanwhile
        public int GetResult() => 42;
    }
}

static class Program
{
    static readonly Loop L = new();

    static async Task<int> Leaf()
    {
        L.Post(_ => Console.WriteLine("other work"), null);
        int r = await new LateAwaitable();
        Console.WriteLine("leaf resumed");
        return r;
    }

    static async Task<int> Middle()
    {
        int r = await Leaf();
        Console.WriteLine("middle resumed");
        return r + 1;
    }

    static async Task Outer()
    {
        int r = await Middle();
        Console.WriteLine("outer resumed " + r + " on " + (SynchronizationContext.Current == L ? "loop" : "other"));
    }

    static void Main()
    {
        Task? t = null;
        L.Post(_ => t = Outer(), null);
        L.Pump();
        Console.WriteLine($"{t!.Status} posted={L.Posted}");
    }
}
