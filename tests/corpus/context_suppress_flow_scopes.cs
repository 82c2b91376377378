// Async methods started while the ExecutionContext's flow is suppressed (the usual way to start
// background work without the caller's AsyncLocal values): what they change in AsyncLocal values
// and Activity.Current stays theirs, whether they suspend or not, are called through their Task or
// awaited directly; the caller sees its own values after the call and after Undo.
using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static readonly AsyncLocal<string> Tenant = new();
    static readonly TaskCompletionSource Stop = new();

    static async Task BackgroundLoop()
    {
        Tenant.Value = "background";
        using var activity = new Activity("background-loop").Start();
        await Stop.Task;
        Console.WriteLine($"loop resumed: tenant={Tenant.Value} activity={Activity.Current?.OperationName ?? "none"}");
    }

    static async Task SetsWithoutSuspending() => Tenant.Value = "callee";

    static async Task<string> SetsAndSuspends(bool suspend)
    {
        Tenant.Value = "awaited callee";
        if (suspend)
            await Task.Yield();
        return Tenant.Value;
    }

    static async Task Caller(bool suspend)
    {
        Tenant.Value = "caller";
        string seen;
        using (ExecutionContext.SuppressFlow())
        {
            var task = SetsAndSuspends(suspend);
            Console.WriteLine($"  started under suppression: tenant={Tenant.Value} suppressed={ExecutionContext.IsFlowSuppressed()}");
            seen = suspend ? "(suspended)" : await task;
        }
        Console.WriteLine($"  after Undo: tenant={Tenant.Value} callee saw={seen}");
    }

    static async Task Main()
    {
        Tenant.Value = "request-42";
        Task loop;
        using (ExecutionContext.SuppressFlow())
            loop = BackgroundLoop();
        Console.WriteLine($"after starting loop: tenant={Tenant.Value} activity={Activity.Current?.OperationName ?? "none"}");
        using (ExecutionContext.SuppressFlow())
            SetsWithoutSuspending().GetAwaiter().GetResult();
        Console.WriteLine($"after sync call: tenant={Tenant.Value}");
        foreach (var suspend in new[] { false, true })
        {
            Console.WriteLine($"suspend={suspend}");
            await Caller(suspend);
        }
        Stop.SetResult();
        await loop;
        Console.WriteLine($"end: tenant={Tenant.Value}");
    }
}
