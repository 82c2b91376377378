using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;
using Logging;

namespace Plugins;

static class Init
{
    [ModuleInitializer]
    internal static void Register()
    {
        Console.WriteLine("Plugins module initializer");
        Registry.Loaded.Add("Plugins");
    }
}

public static class Plugin
{
    public static async Task<string> Run(int x)
    {
        await Registry.Maybe();
        return await Log.Write("plugin ran " + x);
    }
}
