using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace Nulls;

public static class Log
{
    public static bool Suspend;
    public static readonly List<string> Lines = new();
    public static void Add(string s) => Lines.Add(s);
    public static async Task Maybe() { if (Suspend) await Task.Yield(); }
}

public interface IService
{
    Task<int> Iface(int x);
    async Task<int> Dim(int x) { Log.Add("Dim ran"); await Log.Maybe(); return await Iface(x) + 1; }
}

public class Service : IService
{
    public int Field = 5;

    public async Task<int> Plain(int x) { Log.Add("Plain ran"); await Log.Maybe(); return x + 1; }
    public async Task<int> NeverReadsThis(int x) { Log.Add("NeverReadsThis ran"); await Log.Maybe(); return x * 3; }
    public async ValueTask<int> Value(int x) { Log.Add("Value ran"); await Log.Maybe(); return x + Field; }
    public async Task Void(string s) { Log.Add("Void ran " + s); await Log.Maybe(); }
    public async Task<int> Closure(int x)
    {
        Log.Add("Closure ran");
        Func<int> f = () => x + Field;
        await Log.Maybe();
        return f();
    }
    public async Task<T> Generic<T>(T value) { Log.Add("Generic ran"); await Log.Maybe(); return value; }
    public virtual async Task<int> Virtual(int x) { Log.Add("Virtual ran"); await Log.Maybe(); return x + 10; }
    public async Task<int> Iface(int x) { Log.Add("Iface ran"); await Log.Maybe(); return x + 20; }
    public async Task<int> Recursive(int n) { Log.Add("Recursive " + n); return n == 0 ? 0 : 1 + await Recursive(n - 1); }
}

public sealed class SealedService : Service
{
    public override async Task<int> Virtual(int x) { Log.Add("Sealed.Virtual ran"); await Log.Maybe(); return x + 100; }
}

public abstract class Shape
{
    public abstract Task<double> Area();
    public async Task<string> Describe() { Log.Add("Describe ran"); return "area " + await Area(); }
}

public class Box<T>
{
    public T? Value;
    public async Task<T?> Get() { Log.Add("Box.Get ran"); await Log.Maybe(); return Value; }
    public async Task<(T?, U)> Pair<U>(U u) { Log.Add("Box.Pair ran"); await Log.Maybe(); return (Value, u); }
    public virtual async Task<string> Show() { Log.Add("Box.Show ran"); await Log.Maybe(); return $"[{Value}]"; }
}

public class Holder
{
    public Service? Service;
    public Holder? Next;
}

public static class LibCalls
{
    // The library's own awaited calls on null receivers it got from the app.
    public static async Task<string> CallOn(Service? s, int x)
    {
        try { return "lib got " + (x + await s!.Plain(x)); }
        catch (NullReferenceException) { return "lib caught NRE"; }
    }
}
