using System;
using System.IO;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.Loader;
using System.Threading.Tasks;
using Contracts;

// Loads Plugin the way a plugin host does, runs it, unloads it and checks that it went away.
sealed class PluginContext(string folder) : AssemblyLoadContext("plugin", isCollectible: true)
{
    protected override Assembly? Load(AssemblyName name)
    {
        if (name.Name == "Contracts")
            return null; // shared with the host: the interface must be the same type on both sides
        var path = Path.Combine(folder, name.Name + ".dll");
        return File.Exists(path) ? LoadFromAssemblyPath(path) : null;
    }
}

static class Program
{
    static async Task<int> Main()
    {
        var (result, context) = await RunPlugin();
        Console.WriteLine("plugin: " + result);
        for (int i = 0; context.IsAlive && i < 50; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            await Task.Delay(10);
        }
        Console.WriteLine("unloaded: " + !context.IsAlive);
        return 0;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static async Task<(string, WeakReference)> RunPlugin()
    {
        var context = new PluginContext(AppContext.BaseDirectory);
        var assembly = context.LoadFromAssemblyName(new AssemblyName("Plugin"));
        var plugin = (IPlugin)Activator.CreateInstance(assembly.GetType("Plugin.MyPlugin")!)!;
        string result = await plugin.RunAsync(5);
        context.Unload();
        return (result, new WeakReference(context));
    }
}
