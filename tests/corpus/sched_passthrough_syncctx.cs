// The same exception passing through a frame without a handler, under a SynchronizationContext pumped
// by hand (FIFO), and under a refusing TaskScheduler with a try/finally or using in the middle frame,
// and a pass-through frame two deep; work posted in between shows how many hops the exception took.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class Fifo : TaskScheduler
{
    private readonly Queue<Task> _q = new();
    public int Queued;
    protected override void QueueTask(Task t) { Queued++; _q.Enqueue(t); }
    protected override bool TryExecuteTaskInline(Task t, bool prev) => false;
    protected override IEnumerable<Task> GetScheduledTasks() => _q;
    public void Pump() { while (_q.Count > 0) TryExecuteTask(_q.Dequeue()); }
}

sealed class ManualContext : SynchronizationContext
{
    private readonly Queue<(SendOrPostCallback, object?)> _q = new();
    public int Posted;
    public override void Post(SendOrPostCallback d, object? state) { Posted++; _q.Enqueue((d, state)); }
    public void Pump()
    {
        var old = Current;
        SetSynchronizationContext(this);
        while (_q.Count > 0) { var (d, s) = _q.Dequeue(); d(s); }
        SetSynchronizationContext(old);
    }
}

static class Program
{
    static readonly Fifo S = new();
    static readonly ManualContext C = new();

    static void Later(string what, int hops)
    {
        if (SynchronizationContext.Current is ManualContext mc)
            mc.Post(_ => { Console.WriteLine(what + " " + hops); if (hops > 1) Later(what, hops - 1); }, null);
        else
            Task.Factory.StartNew(() => { Console.WriteLine(what + " " + hops); if (hops > 1) Later(what, hops - 1); },
                CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);
    }

    static async Task<int> Thrower()
    {
        await Task.Yield();
        Later("  other work", 4);
        throw new InvalidOperationException("boom");
    }

    static async Task<int> PassThrough() => await Thrower();
    static async Task<int> PassThrough2() => 1 + await PassThrough();
    static async Task<int> WithFinally()
    {
        try { return await Thrower(); }
        finally { Console.WriteLine("  finally"); }
    }
    static async Task<int> WithUsing()
    {
        using var d = new D();
        return await Thrower();
    }
    sealed class D : IDisposable { public void Dispose() => Console.WriteLine("  disposed"); }

    static async Task Catches(Func<Task<int>> f)
    {
        try { await f(); }
        catch (InvalidOperationException e) { Console.WriteLine("  caught " + e.Message); }
    }

    static void Main()
    {
        var cases = new (string, Func<Task<int>>)[] { ("direct", Thrower), ("pass", PassThrough), ("pass2", PassThrough2), ("finally", WithFinally), ("using", WithUsing) };
        foreach (var (name, f) in cases)
        {
            Console.WriteLine("scheduler " + name);
            S.Queued = 0;
            var t = Task.Factory.StartNew(() => Catches(f), CancellationToken.None, TaskCreationOptions.None, S).Unwrap();
            S.Pump();
            Console.WriteLine($"  {t.Status} queued={S.Queued}");
        }
        foreach (var (name, f) in cases)
        {
            Console.WriteLine("context " + name);
            C.Posted = 0;
            Task? t = null;
            C.Post(_ => t = Catches(f), null);
            C.Pump();
            Console.WriteLine($"  {t!.Status} posted={C.Posted}");
        }
    }
}
