// Virtual async methods reached through type parameters: `where T : Animal` calls (callvirt on a
// generic receiver), constrained calls to interface methods on class and struct type arguments,
// object's virtual ToString overridden by a class whose async methods use it, and virtual calls
// from inside an async lambda passed to a generic helper.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

abstract class Animal
{
    public string Name = "";
    public abstract Task<string> Speak(int times);
    public virtual async Task<int> Legs()
    {
        await Program.Pause();
        return 4;
    }
    public override string ToString() => $"{GetType().Name}:{Name}";
}

class Dog : Animal
{
    public override async Task<string> Speak(int times)
    {
        var s = "";
        for (int i = 0; i < times; i++)
        {
            await Program.Pause();
            s += "woof";
        }
        return s;
    }
}

sealed class Bird : Animal
{
    public override async Task<string> Speak(int times)
    {
        await Program.Pause();
        return string.Concat(System.Linq.Enumerable.Repeat("tweet", times));
    }
    public override async Task<int> Legs() => await base.Legs() - 2;
}

interface ICounter
{
    Task<int> Increment(int by);
    int Value { get; }
}

struct StructCounter : ICounter
{
    private int _value;
    public int Value => _value;
    public async Task<int> Increment(int by)
    {
        _value += by; // mutates the copy the async method works on
        await Program.Pause();
        return _value;
    }
}

sealed class ClassCounter : ICounter
{
    private int _value;
    public int Value => _value;
    public async Task<int> Increment(int by)
    {
        await Program.Pause();
        _value += by;
        return _value;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Chorus<T>(IEnumerable<T> animals, int times) where T : Animal
    {
        var parts = new List<string>();
        foreach (T a in animals)
            parts.Add($"{a}={await a.Speak(times)}/{await a.Legs()}");
        return string.Join(" ", parts);
    }

    static async Task<string> Bump<TCounter>(TCounter counter) where TCounter : ICounter
    {
        int first = await counter.Increment(2);
        int second = await counter.Increment(3);
        return $"{typeof(TCounter).Name}: {first},{second} value={counter.Value}";
    }

    static async Task<string> BumpByRef<TCounter>(TCounter[] counters) where TCounter : ICounter
    {
        int r = await counters[0].Increment(5);
        return $"{typeof(TCounter).Name}[0]: {r} value={counters[0].Value}";
    }

    static async Task<TResult> With<T, TResult>(T item, Func<T, Task<TResult>> f) => await f(item);

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Chorus(new Animal[] { new Dog { Name = "rex" }, new Bird { Name = "tweety" } }, 2));
            Console.WriteLine(await Chorus(new List<Dog> { new Dog { Name = "a" }, new Dog { Name = "b" } }, 1));
            Console.WriteLine(await Bump(new StructCounter()));
            Console.WriteLine(await Bump(new ClassCounter()));
            Console.WriteLine(await Bump<ICounter>(new StructCounter()));
            Console.WriteLine(await BumpByRef(new[] { new StructCounter() }));
            Console.WriteLine(await BumpByRef(new[] { new ClassCounter() }));
            Console.WriteLine(await With<Animal, string>(new Bird { Name = "b" }, async a => await a.Speak(3) + "!"));
        }
    }
}
