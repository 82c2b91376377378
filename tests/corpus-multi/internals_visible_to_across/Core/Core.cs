using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

[assembly: InternalsVisibleTo("App")]

namespace Core;

public static class Pause
{
    public static bool Suspend;
    public static async Task Maybe() { if (Suspend) await Task.Yield(); }
}

internal static class Secrets
{
    internal static int Calls;
    static Secrets() { Console.WriteLine("Secrets cctor"); }
    internal static async Task<int> Compute(int x)
    {
        Console.WriteLine("Compute enter");
        await Pause.Maybe();
        Calls++;
        return x * 2;
    }
}

internal struct Meter
{
    internal int V;
    static Meter() { Console.WriteLine("Meter cctor"); }
    internal async Task<int> Read()
    {
        Console.WriteLine("Read enter");
        await Pause.Maybe();
        return ++V;
    }
}

internal sealed class Gen<T>
{
    static Gen() { Console.WriteLine("Gen cctor " + typeof(T).Name); }
    internal static async Task<string> Echo(T value)
    {
        await Pause.Maybe();
        return $"{typeof(T).Name}:{value}";
    }
}

internal interface IJob
{
    Task<int> Run(int x);
    async Task<int> Twice(int x) => await Run(x) + await Run(x);
}

public class Service
{
    private int _state = 1;
    internal async Task<string> InternalOp(int x)
    {
        await Pause.Maybe();
        return "internal " + (x + _state);
    }
    protected internal virtual async Task<string> Hook(int x)
    {
        await Pause.Maybe();
        return "core hook " + x;
    }
    private protected async Task<int> Shared(int x)
    {
        await Pause.Maybe();
        return _state += x;
    }
    internal virtual async Task<int> Virt(int x)
    {
        await Pause.Maybe();
        return x + 1000;
    }
    internal static async Task<string> Drive(Service s, IJob job, int x)
        => $"{await s.Hook(x)} | {await s.Virt(x)} | {await job.Twice(x)}";
}
