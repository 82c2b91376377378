// The root registers a suspended chain with its notifier under the SynchronizationContext the leaf
// suspended in, even when the frames' context scopes put their callers' back while the chain
// unwinds (Async2 records it in the chain at the first scope that does so). Each leaf here
// installs a context itself and awaits something that captures the current context when it is
// registered (Task.Yield, a Task, a custom awaiter), then says where it continued; callers at
// several depths, some installing contexts of their own, say where they continued too.
using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class CapturingAwaiter : ICriticalNotifyCompletion
{
    public CapturingAwaiter GetAwaiter() => this;
    public bool IsCompleted => false;
    public void GetResult() { }
    public void OnCompleted(Action continuation) => UnsafeOnCompleted(continuation);

    // Continues where it was registered: on the current context if there is one, else on the pool.
    public void UnsafeOnCompleted(Action continuation)
    {
        var context = SynchronizationContext.Current;
        if (context is null)
            ThreadPool.UnsafeQueueUserWorkItem(_ => continuation(), null);
        else
            context.Post(_ => continuation(), null);
    }
}

static class Program
{
    static string Current => ThreadPoolContext.CurrentName;

    static async Task<string> LeafYields(string name)
    {
        var previous = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(new ThreadPoolContext(name));
        try
        {
            await Task.Yield();
            return "leaf " + name + " after Yield on " + Current;
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(previous);
        }
    }

    static async Task<string> LeafAwaitsTask(string name, Task gate)
    {
        var previous = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(new ThreadPoolContext(name));
        try
        {
            await gate;
            return "leaf " + name + " after Task on " + Current;
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(previous);
        }
    }

    static async Task<string> LeafAwaitsCustom(string name)
    {
        var previous = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(new ThreadPoolContext(name));
        try
        {
            await new CapturingAwaiter();
            return "leaf " + name + " after custom awaiter on " + Current;
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(previous);
        }
    }

    // No scope of its own: it changes no context, it only passes the leaf's result up.
    static async Task<string> Middle(Func<Task<string>> leaf) => await leaf() + "; middle on " + Current;

    static async Task<string> Installs(string name, Func<Task<string>> inner)
    {
        var previous = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(new ThreadPoolContext(name));
        try
        {
            string s = await inner();
            return s + "; " + name + " on " + Current;
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(previous);
        }
    }

    static async Task<string> Outer(Func<Task<string>> body)
    {
        string s = await body();
        return s + "; outer on " + Current;
    }

    static void Main()
    {
        var gate = new TaskCompletionSource();
        var cases = new (string Name, Func<Task<string>> Body)[]
        {
            ("leaf alone", () => LeafYields("L")),
            ("leaf under a plain caller", () => Middle(() => LeafYields("L"))),
            ("leaf under an installing caller", () => Installs("C", () => LeafYields("L"))),
            ("two installing callers", () => Installs("C1", () => Middle(() => Installs("C2", () => LeafYields("L"))))),
            ("leaf awaiting a task", () => Installs("C", () => LeafAwaitsTask("L", gate.Task))),
            ("leaf awaiting a custom awaiter", () => Middle(() => Installs("C", () => LeafAwaitsCustom("L")))),
        };
        foreach (var (name, body) in cases)
        {
            var outcome = Outer(body);
            if (name == "leaf awaiting a task")
            {
                Thread.Sleep(20);
                gate.SetResult();
            }
            Console.WriteLine(name + ": " + outcome.GetAwaiter().GetResult());
        }
    }
}
