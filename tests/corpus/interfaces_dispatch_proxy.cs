// System.Reflection.DispatchProxy in front of interfaces that rewritten classes implement: a
// mock answering by the method it is asked about, and a decorator logging each call and
// forwarding it to the real implementation by reflection. A proxy implements every virtual
// member of the interface, Async2's internal entries too; it must be asked for the interface's
// methods, as in classic async. Generic interfaces, default methods, Task, Task<T> and ValueTask<T>.
using System;
using System.Collections.Generic;
using System.Reflection;
using System.Threading.Tasks;

public interface IGreeter
{
    Task<string> Greet(string name);
    Task Wave(int times);
    ValueTask<int> Count();
    async Task<string> Twice(string name) => await Greet(name) + " / " + await Greet(name);
}

public interface IStore<T>
{
    Task<T> Load(int id);
    Task<List<T>> LoadMany(int from, int count);
}

public sealed class Greeter : IGreeter
{
    public int Waves;
    public async Task<string> Greet(string name) { await Program.Pause(); return "hello " + name; }
    public async Task Wave(int times) { await Program.Pause(); Waves += times; }
    public async ValueTask<int> Count() { await Program.Pause(); return Waves; }
}

public class Store<T> : IStore<T>
{
    private readonly Func<int, T> _make;
    public Store(Func<int, T> make) => _make = make;
    public async Task<T> Load(int id) { await Program.Pause(); return _make(id); }
    public async Task<List<T>> LoadMany(int from, int count)
    {
        var items = new List<T>();
        for (int i = from; i < from + count; i++)
            items.Add(await Load(i));
        return items;
    }
}

public class Mock : DispatchProxy
{
    protected override object? Invoke(MethodInfo? method, object?[]? args)
    {
        Program.Log.Add($"mock {method!.Name}");
        return method.Name switch
        {
            nameof(IGreeter.Greet) => Task.FromResult("mocked " + args![0]),
            nameof(IGreeter.Wave) => Task.CompletedTask,
            nameof(IGreeter.Count) => new ValueTask<int>(42),
            nameof(IGreeter.Twice) => Task.FromResult("mocked twice"),
            _ => throw new InvalidOperationException($"unexpected {method.Name}"),
        };
    }
}

public class Logging<T> : DispatchProxy
{
    public T Target = default!;

    protected override object? Invoke(MethodInfo? method, object?[]? args)
    {
        Program.Log.Add($"log {method!.Name}({string.Join(",", args ?? [])})");
        return method.Invoke(Target, args);
    }

    public static T Around(T target)
    {
        var proxy = DispatchProxy.Create<T, Logging<T>>();
        ((Logging<T>)(object)proxy!).Target = target;
        return proxy;
    }
}

static class Program
{
    public static readonly List<string> Log = new();
    static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> UseGreeter(IGreeter greeter)
    {
        await greeter.Wave(2);
        return $"{await greeter.Greet("bob")} | {await greeter.Twice("ann")} | {await greeter.Count()}";
    }

    static async Task<string> UseStore<T>(IStore<T> store) =>
        $"{await store.Load(1)} [{string.Join(",", await store.LoadMany(2, 3))}]";

    static async Task Main()
    {
        foreach (bool suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine(await UseGreeter(new Greeter()));
            Console.WriteLine(await UseGreeter(DispatchProxy.Create<IGreeter, Mock>()));
            Console.WriteLine(await UseGreeter(Logging<IGreeter>.Around(new Greeter())));
            Console.WriteLine(await UseStore(new Store<int>(i => i * 10)));
            Console.WriteLine(await UseStore(Logging<IStore<string>>.Around(new Store<string>(i => "s" + i))));
            Console.WriteLine(string.Join(" ", Log));
            Log.Clear();
        }
    }
}
