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
    static async Task<int> Main()
    {
        int wrong = 0, unloaded = 0;
        for (int i = 0; i < 40; i++)
        {
            string which = i % 2 == 0 ? "PA.DerivedSame, PA" : "PB.DerivedOther, PB";
            var (result, weak) = await RunOnce(which);
            string expected = i % 2 == 0 ? "derived-same" : "derived-other";
            if (result != expected)
            {
                wrong++;
                if (wrong <= 3) Console.WriteLine($"cycle {i}: {which} -> {result}");
            }
            for (int k = 0; weak.IsAlive && k < 50; k++)
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }
            if (!weak.IsAlive) unloaded++;
        }
        Console.WriteLine("wrong: " + wrong);
        Console.WriteLine("unloaded all: " + (unloaded == 40));
        return 0;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static async Task<(string, WeakReference)> RunOnce(string which)
    {
        var context = new PluginContext(AppContext.BaseDirectory);
        var pa = context.LoadFromAssemblyName(new AssemblyName("PA"));
        var pb = context.LoadFromAssemblyName(new AssemblyName("PB"));
        var typeName = which.Split(", ");
        var type = (typeName[1] == "PA" ? pa : pb).GetType(typeName[0])!;
        var obj = Activator.CreateInstance(type)!;
        var run = pa.GetType("PA.Runner")!.GetMethod("RunAsync")!;
        string result = await (Task<string>)run.Invoke(null, [obj])!;
        context.Unload();
        return (result, new WeakReference(context));
    }
}
