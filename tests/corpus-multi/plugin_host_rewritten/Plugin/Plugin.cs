using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using Contracts;

namespace Plugin;

public sealed class MyPlugin : PluginBase, IPlugin
{
    private static readonly AsyncLocal<int> Depth = new();

    public override async Task<int> ComputeAsync(int x)
    {
        if (Suspend) await Task.Yield();
        return x * 3 + 1;
    }

    public override async Task<string> DescribeAsync()
    {
        string b = await base.DescribeAsync();
        return "[" + b + "]";
    }

    public async Task<string> RunAsync(IHost host, int n)
    {
        var log = new List<string>();
        Depth.Value = n;
        log.Add("ctx0=" + NamedContext.CurrentName);
        int cb = await host.CallbackAsync(n);
        log.Add("cb=" + cb + " ctx1=" + NamedContext.CurrentName + " depth=" + Depth.Value);
        string name = await host.NameAsync();
        log.Add("name=" + name);
        await Ambient.SetAsync("set-in-callee");
        log.Add("ambient-after-callee-set=" + (Ambient.Value.Value ?? "(null)"));
        Ambient.Value.Value = "plugin";
        log.Add("ambient-read=" + await Ambient.ReadLaterAsync());
        log.Add("describe=" + await DescribeAsync());
        log.Add("twice=" + await TwiceComputeAsync(2));
        PluginBase pb = this;
        log.Add("viaBase=" + await pb.DescribeAsync());
        try
        {
            await FailAsync("boom " + n);
        }
        catch (InvalidOperationException e)
        {
            log.Add("caught=" + e.Message);
        }
        int sum = 0;
        await foreach (var i in StreamAsync(n))
            sum += i;
        log.Add("sum=" + sum + " ctx2=" + NamedContext.CurrentName);
        // Yields every time: a Task.Delay(1) could complete before its await on a loaded machine and stay on the context.
        await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
        log.Add("after-cfa ctx=" + NamedContext.CurrentName);
        return string.Join("; ", log);
    }

    public async IAsyncEnumerable<int> StreamAsync(int n, [EnumeratorCancellation] CancellationToken token = default)
    {
        for (int i = 0; i < n; i++)
        {
            if (Suspend) await Task.Yield();
            yield return i * i;
        }
    }

    IAsyncEnumerable<int> IPlugin.StreamAsync(int n) => StreamAsync(n);

    public async Task<int> WaitForHostAsync(Task<int> gate)
    {
        Depth.Value = 7;
        int v = await gate;
        if (Suspend) await Task.Yield();
        return v + Depth.Value + await ComputeAsync(v);
    }

    public async Task FailAsync(string message)
    {
        if (Suspend) await Task.Yield();
        throw new InvalidOperationException(message);
    }
}
