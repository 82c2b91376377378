// Async instance methods reached with a null receiver. Through an open-instance delegate
// (Delegate.CreateDelegate over an instance MethodInfo, as fast-reflection dispatchers build them)
// or DynamicInvoke, nothing tests the receiver: classic's stub runs the body with a null `this`, so
// a method that never reads `this` completes and one that reads a field after an await faults only
// there. An awaited `receiver.M()` in async code tests it at the call (callvirt), before any of M
// runs, also with values on the stack below the call, under a filter, on `this` itself, and for
// virtual, sealed and interface methods.
using System;
using System.Linq.Expressions;
using System.Threading.Tasks;

interface IService
{
    Task<int> ThroughInterface(int x);
}

class Service : IService
{
    public int Field = 7;

    public async Task<int> Pure(int x)
    {
        await Program.Pause();
        return x * 2;
    }

    public async Task<int> ReadsLater(int x)
    {
        await Program.Pause();
        return x + Field;
    }

    public async Task<int> ReadsFirst(int x)
    {
        var f = Field;
        await Program.Pause();
        return x + f;
    }

    public async Task<int> LogsThenReads(int x)
    {
        Console.WriteLine("  LogsThenReads started with " + x);
        await Program.Pause();
        Console.WriteLine("  LogsThenReads resumed");
        return x + Field;
    }

    public async Task<string> ChecksNull()
    {
        await Program.Pause();
        return ReferenceEquals(this, null) ? "this is null" : "this is set";
    }

    // Reached with a null this, its own call on this throws at that call.
    public async Task<string> CallsOnThis()
    {
        Console.WriteLine("  CallsOnThis started");
        await Program.Pause();
        try
        {
            return "got " + await this.Pure(1);
        }
        catch (NullReferenceException)
        {
            return "this.Pure threw NullReferenceException";
        }
    }

    public virtual async Task<int> Virtual(int x)
    {
        await Program.Pause();
        return x + 1;
    }

    public async Task<int> ThroughInterface(int x)
    {
        await Program.Pause();
        return x + 2;
    }
}

sealed class Derived : Service
{
    public sealed override async Task<int> Virtual(int x)
    {
        await Program.Pause();
        return x + 3;
    }
}

static class Program
{
    public static bool Suspend;
    static int s_effects;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static int Effect(int value)
    {
        s_effects++;
        return value;
    }

    static T Open<T>(string name) where T : Delegate =>
        (T)Delegate.CreateDelegate(typeof(T), typeof(Service).GetMethod(name)!);

    static async Task<string> Try<T>(string label, Func<Task<T>> call)
    {
        Task<T> task;
        try
        {
            task = call();
        }
        catch (Exception e)
        {
            return $"{label}: call threw {e.GetType().Name}";
        }
        try
        {
            return $"{label}: -> {await task}";
        }
        catch (Exception e)
        {
            return $"{label}: -> await threw {e.GetType().Name}";
        }
    }

    // Awaited calls on a null receiver in async code: each must throw before the callee runs.
    static async Task<int> Plain(Service s) => await s.Pure(Effect(1));

    static async Task<int> WithStackBelow(Service s) => Effect(10) + await s.ReadsFirst(Effect(2));

    static async Task<int> UnderFilter(Service s, string text)
    {
        try
        {
            return await s.LogsThenReads(Effect(3));
        }
        catch (NullReferenceException) when (text.Length > 0)
        {
            return -1;
        }
    }

    static async Task<int> OnVirtual(Service s) => await s.Virtual(Effect(4));

    static async Task<int> OnSealed(Derived d) => await d.Virtual(Effect(5));

    static async Task<int> OnInterface(IService s) => await s.ThroughInterface(Effect(6));

    static async Task<string> Caught(string label, Func<Task<int>> run)
    {
        int before = s_effects;
        try
        {
            return $"{label}: {await run()} ({s_effects - before} effects)";
        }
        catch (Exception e)
        {
            return $"{label}: {e.GetType().Name} ({s_effects - before} effects)";
        }
    }

    static async Task Main()
    {
        var pure = Open<Func<Service, int, Task<int>>>(nameof(Service.Pure));
        var later = Open<Func<Service, int, Task<int>>>(nameof(Service.ReadsLater));
        var first = Open<Func<Service, int, Task<int>>>(nameof(Service.ReadsFirst));
        var logs = Open<Func<Service, int, Task<int>>>(nameof(Service.LogsThenReads));
        var checks = Open<Func<Service, Task<string>>>(nameof(Service.ChecksNull));
        var onThis = Open<Func<Service, Task<string>>>(nameof(Service.CallsOnThis));
        var p = Expression.Parameter(typeof(Service), "s");
        var x = Expression.Parameter(typeof(int), "x");
        var compiled = Expression.Lambda<Func<Service, int, Task<int>>>(
            Expression.Call(p, typeof(Service).GetMethod(nameof(Service.Pure))!, x), p, x).Compile();
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"--- suspend={suspend}");
            Console.WriteLine(await Try("pure real", () => pure(new Service(), 3)));
            Console.WriteLine(await Try("pure null", () => pure(null!, 3)));
            Console.WriteLine(await Try("later null", () => later(null!, 3)));
            Console.WriteLine(await Try("first null", () => first(null!, 3)));
            Console.WriteLine(await Try("logs null", () => logs(null!, 9)));
            Console.WriteLine(await Try("checks null", () => checks(null!)));
            Console.WriteLine(await Try("checks real", () => checks(new Service())));
            Console.WriteLine(await Try("this null", () => onThis(null!)));
            Console.WriteLine(await Try("expression null", () => compiled(null!, 4)));
            Console.WriteLine(await Try("dynamic null", () => (Task<int>)pure.DynamicInvoke(null, 5)!));

            Console.WriteLine(await Caught("plain", () => Plain(null!)));
            Console.WriteLine(await Caught("plain real", () => Plain(new Service())));
            Console.WriteLine(await Caught("stack below", () => WithStackBelow(null!)));
            Console.WriteLine(await Caught("under filter", () => UnderFilter(null!, "x")));
            Console.WriteLine(await Caught("virtual", () => OnVirtual(null!)));
            Console.WriteLine(await Caught("virtual real", () => OnVirtual(new Derived())));
            Console.WriteLine(await Caught("sealed", () => OnSealed(null!)));
            Console.WriteLine(await Caught("interface", () => OnInterface(null!)));
        }
    }
}
