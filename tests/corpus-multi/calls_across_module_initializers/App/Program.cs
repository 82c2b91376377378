using System;
using System.Threading.Tasks;
using Logging;

static class Program
{
    static async Task<string> RunPlugin(int x) => await Plugins.Plugin.Run(x);

    // Never called: the harness passes no arguments.
    static async Task<int> RunUnused() => await Unused.Feature.Run();

    static async Task Main(string[] args)
    {
        foreach (var suspend in new[] { false, true })
        {
            Registry.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Log.Write("first"));
            Console.WriteLine("loaded now: " + string.Join(",", Registry.Loaded));
            Console.WriteLine(await RunPlugin(1));
            if (args.Length > 0)
                Console.WriteLine(await RunUnused());
            Console.WriteLine("loaded after the plugin: " + string.Join(",", Registry.Loaded));
        }
    }
}
