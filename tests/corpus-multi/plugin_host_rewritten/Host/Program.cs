using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.Loader;
using System.Threading;
using System.Threading.Tasks;
using Contracts;

sealed class PluginContext(string folder, bool ownRuntime) : AssemblyLoadContext("plugin", isCollectible: true)
{
    protected override Assembly? Load(AssemblyName name)
    {
        if (name.Name == "Contracts")
            return null;
        if (name.Name == "Async2.Runtime" && !ownRuntime)
            return null;
        var path = Path.Combine(folder, name.Name + ".dll");
        return File.Exists(path) ? LoadFromAssemblyPath(path) : null;
    }
}

sealed class Host : IHost
{
    public TaskCompletionSource<int> GateSource = new(TaskCreationOptions.RunContinuationsAsynchronously);
    public Task Gate => GateSource.Task;

    public async Task<int> CallbackAsync(int x)
    {
        if (PluginBase.Suspend) await Task.Yield();
        return x + 100;
    }

    public async ValueTask<string> NameAsync()
    {
        if (PluginBase.Suspend) await Task.Yield();
        return "host";
    }
}

static class Program
{
    static async Task<int> Main()
    {
        foreach (var own in new[] { false, true })
        foreach (var suspend in new[] { false, true })
        {
            PluginBase.Suspend = suspend;
            Console.WriteLine($"== own={own} suspend={suspend}");
            var weak = await RunPlugin(own);
            Console.WriteLine("unloaded: " + await Unloaded(weak));
            var weak2 = RunOnContext(own);
            Console.WriteLine("unloaded(ctx): " + await Unloaded(weak2));
            var weak3 = await PendingWhileUnloading(own);
            Console.WriteLine("unloaded(pending): " + await Unloaded(weak3));
        }
        return 0;
    }

    static async Task<bool> Unloaded(WeakReference weak)
    {
        for (int i = 0; weak.IsAlive && i < 100; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            await Task.Delay(5);
        }
        return !weak.IsAlive;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static IPlugin Load(PluginContext context)
    {
        var assembly = context.LoadFromAssemblyPath(Path.Combine(AppContext.BaseDirectory, "Plugin.dll"));
        return (IPlugin)Activator.CreateInstance(assembly.GetType("Plugin.MyPlugin")!)!;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static async Task<WeakReference> RunPlugin(bool own)
    {
        var context = new PluginContext(AppContext.BaseDirectory, own);
        var plugin = Load(context);
        var host = new Host();
        Ambient.Value.Value = "host";
        string result = await plugin.RunAsync(host, 3);
        Console.WriteLine("run: " + result);
        Console.WriteLine("host ambient after: " + Ambient.Value.Value);
        var pb = (PluginBase)plugin;
        Console.WriteLine("describe: " + await pb.DescribeAsync());
        Console.WriteLine("compute: " + await pb.ComputeAsync(5));
        Console.WriteLine("twice: " + await pb.TwiceComputeAsync(1));
        try
        {
            await plugin.FailAsync("host-called");
        }
        catch (InvalidOperationException e)
        {
            Console.WriteLine("caught: " + e.Message);
        }
        var list = new List<int>();
        await foreach (var i in plugin.StreamAsync(4))
            list.Add(i);
        Console.WriteLine("stream: " + string.Join(",", list));
        await using (var e = plugin.StreamAsync(5).GetAsyncEnumerator())
        {
            await e.MoveNextAsync();
            await e.MoveNextAsync();
            Console.WriteLine("partial: " + e.Current);
        }
        context.Unload();
        return new WeakReference(context);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static WeakReference RunOnContext(bool own)
    {
        var context = new PluginContext(AppContext.BaseDirectory, own);
        var ctx = new NamedContext("ui");
        ctx.Run(async () =>
        {
            var plugin = Load(context);
            Ambient.Value.Value = null;
            string result = await plugin.RunAsync(new Host(), 2);
            Console.WriteLine("ctx run: " + result + " / back on " + NamedContext.CurrentName);
        });
        context.Unload();
        return new WeakReference(context);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static async Task<WeakReference> PendingWhileUnloading(bool own)
    {
        var context = new PluginContext(AppContext.BaseDirectory, own);
        var plugin = Load(context);
        var gate = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var pending = plugin.WaitForHostAsync(gate.Task);
        Console.WriteLine("pending completed? " + pending.IsCompleted);
        context.Unload();
        plugin = null;
        GC.Collect();
        GC.WaitForPendingFinalizers();
        gate.SetResult(5);
        Console.WriteLine("pending result: " + await pending);
        return new WeakReference(context);
    }
}
