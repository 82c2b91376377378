// Flowing context mode (seed 002, "Flowing SynchronizationContext and ExecutionContext"), opted into
// for the whole assembly: a callee's AsyncLocal changes are visible to its caller after it returns,
// whether it returned synchronously, after suspending (the seed's DoOuterAsync/DoInnerAsync prints
// "Inner"), after changing the value past its suspension, or by throwing. A method opting out with
// [FlowContexts(false)] keeps classic behaviour, an override reached through a virtual call flows as
// a direct call does, and a Task thunk (a call through a delegate, which is not a direct async2
// call) still saves and restores the caller's values.
using System;
using System.Threading;
using System.Threading.Tasks;

[assembly: Async2.Runtime.FlowContexts]

abstract class Setter
{
    public abstract Task Set(AsyncLocal<string?> local, string value, bool suspend);
}

sealed class SetsAfterSuspending : Setter
{
    public override async Task Set(AsyncLocal<string?> local, string value, bool suspend)
    {
        if (suspend) await Task.Delay(1);
        local.Value = value;
    }
}

static class Program
{
    static bool Suspend;

    static async Task DoOuterAsync()
    {
        AsyncLocal<string> local = new AsyncLocal<string> { Value = "Outer" };
        await DoInnerAsync(local);
        Console.WriteLine($"DoOuter: {local.Value}");
    }

    static async Task DoInnerAsync(AsyncLocal<string> local)
    {
        local.Value = "Inner";
        await Task.Yield();
    }

    static readonly AsyncLocal<string?> Name = new AsyncLocal<string?>();

    static string Now => Name.Value ?? "null";

    static async Task Pause()
    {
        if (Suspend) await Task.Delay(1);
    }

    static async Task SetsSynchronously(string value) => Name.Value = value;

    static async Task SetsAfterSuspending(string value)
    {
        await Pause();
        Name.Value = value;
    }

    static async Task SetsThenThrows(string value)
    {
        await Pause();
        Name.Value = value;
        throw new InvalidOperationException("thrown");
    }

    static async Task<string> Middle()
    {
        await SetsAfterSuspending("from leaf through middle");
        return "middle saw " + Now;
    }

    [Async2.Runtime.FlowContexts(false)]
    static async Task OptedOut(string value)
    {
        Name.Value = value;
        await Pause();
    }

    static async Task Scenarios()
    {
        Name.Value = "caller";
        await SetsSynchronously("sync");
        Console.WriteLine("after sync callee: " + Now);
        await SetsAfterSuspending("after suspending");
        Console.WriteLine("after suspending callee: " + Now);
        try { await SetsThenThrows("before throwing"); }
        catch (InvalidOperationException) { Console.WriteLine("after throwing callee: " + Now); }
        Console.WriteLine(await Middle() + ", caller: " + Now);
        Name.Value = "caller again";
        await OptedOut("opted out");
        Console.WriteLine("after opted-out callee: " + Now);
        Setter setter = new SetsAfterSuspending();
        await setter.Set(Name, "through a virtual call", Suspend);
        Console.WriteLine("after a virtual callee: " + Now);
        Name.Value = "caller again";
        Func<string, Task> throughThunk = SetsAfterSuspending;
        await throughThunk("through a thunk");
        Console.WriteLine("after a call through a Task thunk: " + Now);
    }

    static async Task Main()
    {
        await DoOuterAsync();
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            await Scenarios();
        }
    }
}
