using System;
using System.IO;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.Loader;
using System.Threading.Tasks;
using Contracts;

sealed class PluginContext(string folder, bool own) : AssemblyLoadContext("plugin", isCollectible: true)
{
    protected override Assembly? Load(AssemblyName name)
    {
        if (name.Name == "Contracts" || (name.Name == "Async2.Runtime" && !own))
            return null;
        var path = Path.Combine(folder, name.Name + ".dll");
        return File.Exists(path) ? LoadFromAssemblyPath(path) : null;
    }
}

static class Program
{
    static async Task Main()
    {
        foreach (var own in new[] { false, true })
        foreach (var suspend in new[] { false, true })
        foreach (var cancel in new[] { false, true })
        {
            Pipeline.Suspend = suspend;
            Stage<int>.Suspend = suspend;
            var weak = await Run(own, cancel);
            for (int i = 0; weak.IsAlive && i < 100; i++)
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
                await Task.Delay(5);
            }
            Console.WriteLine($"own={own} suspend={suspend} cancel={cancel} unloaded: {!weak.IsAlive}");
        }
        // The host's own instantiations still work after the plugins went away.
        Console.WriteLine(await Pipeline.RunAsync<int>(new Inc(), 1, 4));
    }

    sealed class Inc : IHandler<int>
    {
        public async Task<int> HandleAsync(int x) { if (Pipeline.Suspend) await Task.Yield(); return x + 1; }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static async Task<WeakReference> Run(bool own, bool cancel)
    {
        var context = new PluginContext(AppContext.BaseDirectory, own);
        var entry = context.LoadFromAssemblyName(new AssemblyName("Plugin")).GetType("Plugin.Entry")!.GetMethod("RunAsync")!;
        Console.WriteLine(await (Task<string>)entry.Invoke(null, [cancel])!);
        context.Unload();
        return new WeakReference(context);
    }
}
