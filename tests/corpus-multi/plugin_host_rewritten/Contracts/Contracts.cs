using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Contracts;

public interface IHost
{
    Task<int> CallbackAsync(int x);
    ValueTask<string> NameAsync();
    Task Gate { get; }
}

public interface IPlugin
{
    Task<string> RunAsync(IHost host, int n);
    IAsyncEnumerable<int> StreamAsync(int n);
    Task<int> WaitForHostAsync(Task<int> gate);
    Task FailAsync(string message);
}

public abstract class PluginBase
{
    public static bool Suspend;
    public abstract Task<int> ComputeAsync(int x);

    public virtual async Task<string> DescribeAsync()
    {
        if (Suspend) await Task.Yield();
        int v = await ComputeAsync(10);
        return GetType().Name + ":" + v;
    }

    public async Task<int> TwiceComputeAsync(int x)
    {
        int a = await ComputeAsync(x);
        if (Suspend) await Task.Yield();
        int b = await ComputeAsync(a);
        return b;
    }
}

public static class Ambient
{
    public static readonly AsyncLocal<string?> Value = new();

    public static async Task<string> ReadLaterAsync()
    {
        if (PluginBase.Suspend) await Task.Yield();
        return Value.Value ?? "(null)";
    }

    public static async Task SetAsync(string v)
    {
        if (PluginBase.Suspend) await Task.Yield();
        Value.Value = v;
    }
}

public sealed class NamedContext : SynchronizationContext
{
    private readonly BlockingCollection<(SendOrPostCallback, object?)> queue = new();
    public string Name { get; }
    public int Posts;
    public NamedContext(string name) { Name = name; }
    public override void Post(SendOrPostCallback d, object? state) { Interlocked.Increment(ref Posts); queue.Add((d, state)); }
    public override SynchronizationContext CreateCopy() => this;
    public static string CurrentName => Current is NamedContext c ? c.Name : Current is null ? "none" : Current.GetType().Name;

    public void Run(Func<Task> body)
    {
        var old = Current;
        SetSynchronizationContext(this);
        try
        {
            var t = body();
            t.ContinueWith(_ => queue.CompleteAdding(), TaskScheduler.Default);
            foreach (var (d, s) in queue.GetConsumingEnumerable())
                d(s);
            t.GetAwaiter().GetResult();
        }
        finally { SetSynchronizationContext(old); }
    }
}
