// The exact sequence of awaiter member calls (GetAwaiter, IsCompleted, OnCompleted vs
// UnsafeOnCompleted, GetResult) for class and struct awaiters, a mutable struct awaiter whose
// members record marks (which copy does GetResult see?), an awaiter whose IsCompleted flips after
// the first read, INotifyCompletion-only awaiters, awaiters that run the continuation inline
// before OnCompleted returns, results through several frames. Continuations are run by a manual
// pump on the main thread, so the trace is deterministic.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

static class Log
{
    public static readonly List<string> Lines = new();
    public static void Add(string s) => Lines.Add(s);
    public static void Flush(string title)
    {
        Console.WriteLine(title + ": " + string.Join(" | ", Lines));
        Lines.Clear();
    }
}

static class Pump
{
    public static readonly Queue<Action> Q = new();
    public static void Run(Task t, string title)
    {
        int steps = 0;
        while (!t.IsCompleted && Q.Count > 0)
        {
            steps++;
            var a = Q.Dequeue();
            try { a(); } catch (Exception e) { Log.Add("pump caught " + e.GetType().Name); }
        }
        while (Q.Count > 0)
        {
            var a = Q.Dequeue();
            try { a(); Log.Add("extra ran"); } catch (Exception e) { Log.Add("pump caught late " + e.GetType().Name); }
        }
        Log.Add($"steps={steps} status={t.Status}");
        if (t.IsFaulted) Log.Add("error " + t.Exception!.InnerException!.GetType().Name + ": " + t.Exception.InnerException.Message);
        else if (t is Task<string> ts && t.IsCompletedSuccessfully) Log.Add("result " + ts.Result);
        else if (t is Task<int> ti && t.IsCompletedSuccessfully) Log.Add("result " + ti.Result);
        Log.Flush(title);
    }
}

sealed class ClassAwaitable
{
    private readonly string name; private readonly int value; private readonly bool later;
    public ClassAwaitable(string name, int value, bool later) { this.name = name; this.value = value; this.later = later; }
    public ClassAwaiter GetAwaiter() { Log.Add(name + ".GetAwaiter"); return new ClassAwaiter(name, value, later); }
}

sealed class ClassAwaiter : ICriticalNotifyCompletion
{
    private readonly string name; private readonly int value; private readonly bool later;
    private int reads; private bool done;
    public ClassAwaiter(string name, int value, bool later) { this.name = name; this.value = value; this.later = later; }
    public bool IsCompleted { get { reads++; Log.Add(name + ".IsCompleted#" + reads); return !later || done; } }
    public void OnCompleted(Action c) { Log.Add(name + ".OnCompleted"); Pump.Q.Enqueue(() => { done = true; c(); }); }
    public void UnsafeOnCompleted(Action c) { Log.Add(name + ".UnsafeOnCompleted"); Pump.Q.Enqueue(() => { done = true; c(); }); }
    public int GetResult() { Log.Add($"{name}.GetResult(done={done},reads={reads})"); return value; }
}

// A mutable struct awaiter: each member adds a mark; GetResult returns the marks it sees.
struct MarkAwaitable
{
    public bool Later;
    public int Seed;
    public MarkAwaiter GetAwaiter() { Seed += 1; return new MarkAwaiter { Later = Later, Marks = Seed }; }
}

struct MarkAwaiter : ICriticalNotifyCompletion
{
    public bool Later;
    public int Marks;
    public bool IsCompleted { get { Marks += 10; return !Later; } }
    public void OnCompleted(Action c) { Marks += 100; Pump.Q.Enqueue(c); }
    public void UnsafeOnCompleted(Action c) { Marks += 1000; Log.Add("mark.Unsafe sees " + Marks); Pump.Q.Enqueue(c); }
    public int GetResult() { Marks += 10000; Log.Add("mark.GetResult sees " + Marks); return Marks; }
}

// Only INotifyCompletion, struct, mutable.
struct PlainAwaiter : INotifyCompletion
{
    public bool Later;
    public int Marks;
    public PlainAwaiter GetAwaiter() => this;
    public bool IsCompleted { get { Marks += 10; return !Later; } }
    public void OnCompleted(Action c) { Marks += 100; Log.Add("plain.OnCompleted sees " + Marks); Pump.Q.Enqueue(c); }
    public int GetResult() { Marks += 10000; Log.Add("plain.GetResult sees " + Marks); return Marks; }
}

// IsCompleted is false on the first read and true afterwards (a racing completion).
sealed class FlipAwaiter : ICriticalNotifyCompletion
{
    private int reads;
    public FlipAwaiter GetAwaiter() => this;
    public bool IsCompleted { get { reads++; Log.Add("flip.IsCompleted#" + reads); return reads > 1; } }
    public void OnCompleted(Action c) { Log.Add("flip.OnCompleted"); Pump.Q.Enqueue(c); }
    public void UnsafeOnCompleted(Action c) { Log.Add("flip.UnsafeOnCompleted"); Pump.Q.Enqueue(c); }
    public string GetResult() { Log.Add("flip.GetResult reads=" + reads); return "flip" + reads; }
}

// Runs the continuation inline before OnCompleted returns.
sealed class InlineAwaiter : ICriticalNotifyCompletion
{
    private readonly int value; private bool done;
    public InlineAwaiter(int value) { this.value = value; }
    public InlineAwaiter GetAwaiter() => this;
    public bool IsCompleted => done;
    public void OnCompleted(Action c) { Log.Add("inline.OnCompleted enter " + value); done = true; c(); Log.Add("inline.OnCompleted exit " + value); }
    public void UnsafeOnCompleted(Action c) { Log.Add("inline.Unsafe enter " + value); done = true; c(); Log.Add("inline.Unsafe exit " + value); }
    public int GetResult() { Log.Add("inline.GetResult " + value + " done=" + done); return value; }
}

// INotifyCompletion only, runs the continuation inline.
struct InlinePlain : INotifyCompletion
{
    public int Value;
    public InlinePlain GetAwaiter() => this;
    public bool IsCompleted => false;
    public void OnCompleted(Action c) { Log.Add("inlinePlain.OnCompleted enter " + Value); c(); Log.Add("inlinePlain.OnCompleted exit " + Value); }
    public int GetResult() { Log.Add("inlinePlain.GetResult " + Value); return Value; }
}

static class Program
{
    static async Task<int> ClassAwaits(bool later)
    {
        Log.Add("class start");
        int a = await new ClassAwaitable("A", 1, later);
        Log.Add("class between " + a);
        int b = await new ClassAwaitable("B", 20, false);
        int c = await new ClassAwaitable("C", 300, later);
        Log.Add("class end");
        return a + b + c;
    }

    static async Task<int> Marks(bool later)
    {
        var m = new MarkAwaitable { Later = later, Seed = 1 };
        int r1 = await m;
        int r2 = await m;
        Log.Add("seed now " + m.Seed);
        var p = new PlainAwaiter { Later = later, Marks = 3 };
        int r3 = await p;
        Log.Add("p.Marks after " + p.Marks);
        return r1 + r2 + r3;
    }

    static async Task<string> Flip()
    {
        string s = await new FlipAwaiter();
        Log.Add("after flip " + s);
        return s + await new FlipAwaiter();
    }

    static async Task<int> InlineLeaf(int n)
    {
        int sum = 0;
        for (int i = 1; i <= n; i++)
        {
            Log.Add("leaf before " + i);
            sum += await new InlineAwaiter(i);
            Log.Add("leaf after " + i);
        }
        sum += await new InlinePlain { Value = 100 };
        Log.Add("leaf returns " + sum);
        return sum;
    }

    static async Task<int> InlineMiddle(int n)
    {
        int r = await InlineLeaf(n) * 2;
        Log.Add("middle got " + r);
        r += await new InlineAwaiter(1000);
        return r;
    }

    static async Task<string> InlineTop()
    {
        var t = InlineMiddle(3);
        Log.Add("top sees middle " + t.Status);
        int v = await t;
        return "top " + v;
    }

    static async Task<int> Chain3(bool later) => await new ClassAwaitable("X", 5, later) + 1;
    static async Task<int> Chain2(bool later) { int v = await Chain3(later); Log.Add("chain2 " + v); return v * 10 + await Chain3(later); }
    static async Task<int> Chain1(bool later) { int v = await Chain2(later); Log.Add("chain1 " + v); return v + 1000; }

    static int Main()
    {
        foreach (var later in new[] { false, true })
        {
            Console.WriteLine("-- later=" + later);
            Pump.Run(ClassAwaits(later), "class");
            Pump.Run(Marks(later), "marks");
            Pump.Run(Chain1(later), "chain");
        }
        Pump.Run(Flip(), "flip");
        return 3;
    }
}
