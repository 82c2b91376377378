using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

namespace Logging;

public static class Registry
{
    public static readonly List<string> Loaded = new();
    public static bool Suspend;
    public static async Task Maybe() { if (Suspend) await Task.Yield(); }
}

static class Init
{
    [ModuleInitializer]
    internal static void Register()
    {
        Console.WriteLine("Logging module initializer");
        Registry.Loaded.Add("Logging");
    }
}

public static class Log
{
    public static async Task<string> Write(string s)
    {
        await Registry.Maybe();
        return $"log: {s} (loaded: {string.Join(",", Registry.Loaded)})";
    }
}
