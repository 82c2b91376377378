using System;
using System.IO;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.Loader;
using System.Threading.Tasks;

sealed class PluginContext(string folder) : AssemblyLoadContext("plugin", isCollectible: true)
{
    protected override Assembly? Load(AssemblyName name)
    {
        if (name.Name == "Async2.Runtime")
            return null; // shared with the host
        var path = Path.Combine(folder, name.Name + ".dll");
        return File.Exists(path) ? LoadFromAssemblyPath(path) : null;
    }
}

static class Program
{
    static async Task Main()
    {
        var weak = await Run();
        for (int i = 0; weak.IsAlive && i < 100; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            await Task.Delay(5);
        }
        Console.WriteLine("unloaded: " + !weak.IsAlive);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static async Task<WeakReference> Run()
    {
        var context = new PluginContext(AppContext.BaseDirectory);
        var entry = context.LoadFromAssemblyName(new AssemblyName("Plugin")).GetType("Plugin.Entry")!.GetMethod("RunAsync")!;
        Console.WriteLine("result: " + await (Task<int>)entry.Invoke(null, null)!);
        context.Unload();
        return new WeakReference(context);
    }
}
