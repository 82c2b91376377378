// Fixture for ReflectionTests: async members of every kind whose reflection surface must look the
// same after rewriting. Suspend makes every method suspend once (Task.Yield) before completing.
using System;
using System.Threading.Tasks;

public class Library
{
    public static bool Suspend;
    private int _calls;

    static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    public async Task<int> Add(int a, int b)
    {
        await Pause();
        _calls++;
        return a + b;
    }

    public static async Task<string> Echo(string s)
    {
        await Pause();
        return s + s;
    }

    public async ValueTask<long> Twice(long x)
    {
        await Pause();
        return x * 2;
    }

    public async Task Touch()
    {
        await Pause();
        _calls++;
    }

    public virtual async Task<int> Calls()
    {
        await Pause();
        return _calls;
    }

    public async Task<T> Identity<T>(T value)
    {
        await Pause();
        return value;
    }

    private async Task<int> Hidden() => await Add(1, 1);

    protected async Task<int> Protected() => await Hidden();

    public Func<int, Task<int>> Incrementer(int by) => async x =>
    {
        await Pause();
        return x + by;
    };

    public class Nested
    {
        public async Task<string> Inner(string s) => await Echo(s);
    }
}

public sealed class Derived : Library
{
    public override async Task<int> Calls() => await base.Calls() + 100;
}

public struct Counter
{
    public int Start;

    public async Task<int> Next()
    {
        if (Library.Suspend) await Task.Yield();
        return ++Start;
    }
}

public interface IGreeter
{
    async Task<string> Greet(string name)
    {
        if (Library.Suspend) await Task.Yield();
        return "hello " + name;
    }
}

public sealed class Greeter : IGreeter { }

public interface IStore
{
    Task<int> Load(int key);
    Task Save(int key);
}

public class Store : IStore
{
    public int Saved;

    public async Task<int> Load(int key)
    {
        if (Library.Suspend) await Task.Yield();
        return key * 10;
    }

    async Task IStore.Save(int key)
    {
        if (Library.Suspend) await Task.Yield();
        Saved = key;
    }
}

public class Box<T>
{
    public async Task<T[]> Pair(T a, T b)
    {
        if (Library.Suspend) await Task.Yield();
        return new[] { a, b };
    }
}

static class Program
{
    static async Task Main() => Console.WriteLine(await new Library().Add(1, 2));
}
