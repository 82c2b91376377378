// A rewritten caller reaching a non-async override or implementation through a virtual or
// interface entry: contexts that override changes are put back when the caller returns, as the
// classic caller's builder does.
using System;
using System.Threading;
using System.Threading.Tasks;

class Base
{
    public virtual async Task<int> Work() { await Task.Yield(); return 1; }
}

class ChangesContexts : Base
{
    public override Task<int> Work()
    {
        Program.Local.Value = "changed by override";
        SynchronizationContext.SetSynchronizationContext(new MarkerContext());
        return Task.FromResult(2);
    }
}

abstract class Step
{
    public abstract Task Run();
}

class RewrittenStep : Step
{
    public override async Task Run() { await Task.Yield(); }
}

class PlainStep : Step
{
    public override Task Run() { Program.Local.Value = "changed by abstract override"; return Task.CompletedTask; }
}

interface ISetter { Task<string> Apply(string value); }

class RewrittenSetter : ISetter
{
    public async Task<string> Apply(string value) { await Task.Yield(); return value; }
}

class PlainSetter : ISetter
{
    public Task<string> Apply(string value) { Program.Local.Value = value; return Task.FromResult(value); }
}

sealed class MarkerContext : SynchronizationContext { }

static class Program
{
    public static readonly AsyncLocal<string> Local = new();

    static async Task<int> CallVirtual(Base b)
    {
        int result = await b.Work();
        Console.WriteLine($"  inside caller: local={Local.Value ?? "null"} context={SynchronizationContext.Current?.GetType().Name ?? "null"}");
        return result;
    }

    static async Task CallAbstract(Step step) => await step.Run();

    static async Task<string> CallInterface(ISetter setter) => await setter.Apply("changed by implementation");

    static void Show(string what) =>
        Console.WriteLine($"after {what}: local={Local.Value ?? "null"} context={SynchronizationContext.Current?.GetType().Name ?? "null"}");

    static async Task Main()
    {
        Local.Value = "outer";
        foreach (Base b in new Base[] { new Base(), new ChangesContexts() })
        {
            Console.WriteLine($"{b.GetType().Name}: {await CallVirtual(b)}");
            Show(b.GetType().Name);
        }
        foreach (Step step in new Step[] { new RewrittenStep(), new PlainStep() })
        {
            await CallAbstract(step);
            Show(step.GetType().Name);
        }
        foreach (ISetter setter in new ISetter[] { new RewrittenSetter(), new PlainSetter() })
        {
            Console.WriteLine($"{setter.GetType().Name}: {await CallInterface(setter)}");
            Show(setter.GetType().Name);
        }
    }
}
