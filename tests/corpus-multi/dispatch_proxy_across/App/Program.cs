// A DispatchProxy made in another assembly than the interface's: awaited from this assembly
// (calls into the other assembly's entries) and from the interface's own assembly. Either way
// the proxy must be asked for the interface's methods, as in classic async.
using System;
using System.Reflection;
using System.Threading.Tasks;
using Across;

public class FixedClock : DispatchProxy
{
    protected override object? Invoke(MethodInfo? method, object?[]? args) => method!.Name switch
    {
        nameof(IClock.Now) => Task.FromResult(7L + (int)args![0]!),
        nameof(IClock.Zone) => new ValueTask<string>("fixed"),
        _ => throw new InvalidOperationException($"asked for {method.Name}"),
    };
}

static class Program
{
    static async Task<string> ReadHere(IClock clock) => $"{await clock.Now(2)} {await clock.Zone()}";

    static async Task Main()
    {
        foreach (bool suspend in new[] { false, true })
        {
            Pause.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            IClock real = new Clock();
            IClock proxy = DispatchProxy.Create<IClock, FixedClock>();
            Console.WriteLine($"{await ReadHere(real)} | {await Use.Read(real)}");
            try
            {
                Console.WriteLine($"{await ReadHere(proxy)} | {await Use.Read(proxy)}");
            }
            catch (Exception e)
            {
                Console.WriteLine($"{e.GetType().Name}: {e.Message}");
            }
        }
    }
}
