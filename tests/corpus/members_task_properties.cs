// Properties and indexers that return tasks (C# has no async getters, so they return the task of an
// async method or of a lambda), virtual and interface Task properties overridden by subclasses,
// Lazy<Task<T>> properties awaited twice, and an async method awaiting them all.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

interface IHasStatus
{
    Task<string> Status { get; }
}

class Service : IHasStatus
{
    private readonly Dictionary<string, int> _data = new() { ["a"] = 1, ["b"] = 2 };
    private readonly Lazy<Task<int>> _expensive;
    public int Loads;

    public Service() => _expensive = new Lazy<Task<int>>(LoadExpensive);

    private async Task<int> LoadExpensive()
    {
        Loads++;
        await Program.Pause();
        return 1234;
    }

    public virtual Task<string> Status => ComputeStatus();

    private async Task<string> ComputeStatus()
    {
        await Program.Pause();
        return $"ok({_data.Count})";
    }

    public Task<int> this[string key] => Lookup(key);

    private async Task<int> Lookup(string key)
    {
        await Program.Pause();
        return _data.TryGetValue(key, out var v) ? v : throw new KeyNotFoundException($"no {key}");
    }

    public Task<int> Expensive => _expensive.Value;

    public Func<Task<string>> Factory { get; set; } = async () => { await Program.Pause(); return "factory"; };
}

sealed class DegradedService : Service
{
    public override Task<string> Status => Degraded();

    private async Task<string> Degraded() => "degraded, base says " + await base.Status;
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Probe(Service s)
    {
        IHasStatus viaInterface = s;
        var status = await s.Status;
        var again = await viaInterface.Status;
        var a = await s["a"];
        int missing;
        try
        {
            missing = await s["zz"];
        }
        catch (KeyNotFoundException e)
        {
            Console.WriteLine($"  {e.Message}");
            missing = -1;
        }
        var e1 = await s.Expensive;
        var e2 = await s.Expensive;
        return $"{status} | {again} | {a} {missing} | {e1} {e2} loads={s.Loads} | {await s.Factory()}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Probe(new Service()));
            var d = new DegradedService { Factory = async () => "custom" };
            Console.WriteLine(await Probe(d));
        }
    }
}
