using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;
using Logging;

namespace Unused;

static class Init
{
    [ModuleInitializer]
    internal static void Register()
    {
        Console.WriteLine("Unused module initializer");
        Registry.Loaded.Add("Unused");
    }
}

public static class Feature
{
    public static async Task<int> Run()
    {
        await Registry.Maybe();
        return 1;
    }
}
