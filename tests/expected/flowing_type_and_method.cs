// Flowing context mode opted into per type and per method (the assembly stays compatible): callees
// in a [FlowContexts] class, or marked [FlowContexts] themselves, leave their AsyncLocal values and
// their SynchronizationContext to their callers, before and after suspending; a compatible method
// calling a flowing one sees its changes but does not pass them on to its own caller; methods of an
// ordinary class keep classic behaviour.
using System;
using System.Threading;
using System.Threading.Tasks;

sealed class MarkerContext : SynchronizationContext
{
    public readonly string Name;
    public MarkerContext(string name) { Name = name; }
    public override SynchronizationContext CreateCopy() => this;
}

static class State
{
    public static bool Suspend;
    public static readonly AsyncLocal<string?> Name = new AsyncLocal<string?>();

    public static string Now => (Name.Value ?? "null") + "/" + (SynchronizationContext.Current is MarkerContext m ? m.Name : "none");

    public static async Task Pause()
    {
        if (Suspend) await Task.Delay(1).ConfigureAwait(false);
    }
}

[Async2.Runtime.FlowContexts]
static class Flowing
{
    public static async Task Set(string value)
    {
        await State.Pause();
        State.Name.Value = value;
        SynchronizationContext.SetSynchronizationContext(new MarkerContext(value));
    }
}

static class Ordinary
{
    public static async Task Set(string value)
    {
        await State.Pause();
        State.Name.Value = value;
        SynchronizationContext.SetSynchronizationContext(new MarkerContext(value));
    }

    [Async2.Runtime.FlowContexts]
    public static async Task SetFlowing(string value)
    {
        State.Name.Value = value;
        await State.Pause();
    }

    public static async Task<string> CompatibleCallerOfFlowing()
    {
        await Flowing.Set("inner");
        return "compatible caller saw " + State.Now;
    }
}

static class Program
{
    static async Task Scenarios()
    {
        State.Name.Value = "main";
        await Flowing.Set("type-level");
        Console.WriteLine("after flowing type's method: " + State.Now);
        SynchronizationContext.SetSynchronizationContext(null);
        await Ordinary.Set("ordinary");
        Console.WriteLine("after ordinary method: " + State.Now);
        await Ordinary.SetFlowing("method-level");
        Console.WriteLine("after flowing method: " + State.Now);
        Console.WriteLine(await Ordinary.CompatibleCallerOfFlowing() + ", its caller: " + State.Now);
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            State.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Scenarios().GetAwaiter().GetResult();
            Console.WriteLine("Main, behind the Task thunk: " + State.Now);
        }
    }
}
