// Mixed-model overrides (seed 002's Base/Derived/MoreDerived, classic methods kept classic with
// [RuntimeAsyncMethodGeneration(false)]) suspended on incomplete TaskCompletionSources instead of
// Task.Yield: several calls through base references are started, checked for IsCompleted while
// their gates are closed, and completed by opening the gates in an order of the program's choosing,
// including a gate that fails and one that is canceled. Continuations run inline when a gate opens,
// so the transcript also shows which frames resumed before the opener went on.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class Gates
{
    private readonly Dictionary<string, TaskCompletionSource<int>> _gates = new();
    public bool Closed;

    public Task<int> Wait(string name, int value)
    {
        if (!Closed)
            return Task.FromResult(value);
        var gate = new TaskCompletionSource<int>();
        _gates.Add(name, gate);
        return gate.Task;
    }

    public void Open(string name, int value)
    {
        Console.WriteLine($"  open {name}");
        _gates[name].SetResult(value);
        Console.WriteLine($"  opened {name}");
    }

    public void Fail(string name) => _gates[name].SetException(new InvalidOperationException($"gate {name} failed"));
    public void Cancel(string name) => _gates[name].SetCanceled();
}

class Base
{
    protected readonly Gates G;
    public Base(Gates g) => G = g;

    public virtual async Task<int> Compute(string id, int x)
    {
        int v = await G.Wait(id + ".base", x + 1);
        Console.WriteLine($"  {id}: Base resumed with {v}");
        return v;
    }
}

class Derived : Base
{
    public Derived(Gates g) : base(g) { }

    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<int> Compute(string id, int x)
    {
        int b = await base.Compute(id, x);
        int v = await G.Wait(id + ".derived", b * 2);
        Console.WriteLine($"  {id}: Derived (classic) resumed with {v}");
        return v;
    }
}

class MoreDerived : Derived
{
    public MoreDerived(Gates g) : base(g) { }

    public override async Task<int> Compute(string id, int x)
    {
        try
        {
            int d = await base.Compute(id, x);
            return d + 1000;
        }
        catch (InvalidOperationException e)
        {
            Console.WriteLine($"  {id}: MoreDerived caught {e.Message}");
            return -1;
        }
    }
}

static class Program
{
    static async Task<string> Through(Base b, string id, int x)
    {
        try
        {
            return $"{id}={await b.Compute(id, x)}";
        }
        catch (OperationCanceledException e)
        {
            return $"{id} canceled ({e.GetType().Name})";
        }
    }

    static async Task Main()
    {
        foreach (var closed in new[] { false, true })
        {
            var g = new Gates { Closed = closed };
            Console.WriteLine($"-- gates closed={closed}");
            var calls = new List<(string Id, Task<string> Task)>();
            foreach (var (id, b) in new (string, Base)[] { ("a", new Base(g)), ("b", new Derived(g)), ("c", new MoreDerived(g)), ("d", new MoreDerived(g)), ("e", new Derived(g)) })
                calls.Add((id, Through(b, id, id[0] - 'a')));
            foreach (var (id, task) in calls)
                Console.WriteLine($"{id} completed before opening: {task.IsCompleted}");
            if (closed)
            {
                g.Open("c.base", 10);
                g.Open("a.base", 20);
                g.Open("b.base", 30);
                g.Open("c.derived", 40);
                g.Open("b.derived", 50);
                g.Open("d.base", 60);
                g.Fail("d.derived");
                g.Cancel("e.base");
            }
            foreach (var (id, task) in calls)
                Console.WriteLine(await task);
        }
    }
}
