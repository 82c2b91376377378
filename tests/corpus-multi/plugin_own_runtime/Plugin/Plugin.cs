using System;
using System.Threading.Tasks;
using Contracts;

namespace Plugin;

public sealed class MyPlugin : IPlugin
{
    public async Task<string> RunAsync(int n)
    {
        // Awaited calls into the shared assembly: static (suspending and not), virtual, base.
        int twice = await Shared.TwiceAsync(n);
        int atOnce = await Shared.TwiceAtOnceAsync(twice);
        string greeting = await new LoudGreeter().GreetAsync("plugin");
        try
        {
            await Failing();
        }
        catch (InvalidOperationException e)
        {
            greeting += " / caught " + e.Message;
        }
        return $"{twice} {atOnce} {greeting}";
    }

    private static async Task Failing()
    {
        await Task.Yield();
        throw new InvalidOperationException("from the plugin");
    }
}

public sealed class LoudGreeter : Greeter
{
    public override async Task<string> GreetAsync(string name) => (await base.GreetAsync(name)).ToUpperInvariant();
}
