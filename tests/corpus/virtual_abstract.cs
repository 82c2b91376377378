// Abstract async steps behind a template method: an abstract class whose async template calls
// abstract and virtual async steps, implemented two levels down, an abstract override that
// re-abstracts a virtual method, and generic abstract bases closed over reference and value types.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

abstract class Pipeline
{
    private readonly List<string> _log = new();

    protected abstract Task<int> Produce(int seed);
    protected abstract Task Consume(int value);
    protected virtual async Task<int> Transform(int value)
    {
        await Program.Pause();
        return value + 1;
    }

    protected void Note(string s) => _log.Add(s);

    public async Task<string> Run(int seed)
    {
        _log.Clear();
        int v = await Produce(seed);
        for (int i = 0; i < 2; i++)
            v = await Transform(v);
        await Consume(v);
        return string.Join(" ", _log) + $" => {v}";
    }
}

class Doubler : Pipeline
{
    protected override async Task<int> Produce(int seed)
    {
        await Program.Pause();
        Note($"produce {seed}");
        return seed * 2;
    }

    protected override async Task Consume(int value)
    {
        Note($"consume {value}");
        await Program.Pause();
    }
}

abstract class Reabstracted : Doubler
{
    protected abstract override Task<int> Transform(int value);
}

sealed class Squarer : Reabstracted
{
    protected override async Task<int> Transform(int value)
    {
        await Program.Pause();
        Note($"square {value}");
        return value * value;
    }

    protected override async Task Consume(int value)
    {
        await base.Consume(value);
        Note("and done");
    }
}

abstract class Source<T>
{
    public abstract Task<T> Next();

    public async Task<List<T>> Take(int n)
    {
        var list = new List<T>();
        for (int i = 0; i < n; i++)
            list.Add(await Next());
        return list;
    }
}

sealed class Counter : Source<int>
{
    private int _n;
    public override async Task<int> Next()
    {
        await Program.Pause();
        return ++_n;
    }
}

sealed class Words : Source<string>
{
    private int _n;
    public override async Task<string> Next()
    {
        if (_n % 2 == 1) await Program.Pause();
        return "w" + _n++;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (Pipeline p in new Pipeline[] { new Doubler(), new Squarer() })
                Console.WriteLine($"{p.GetType().Name}: {await p.Run(3)}");
            Console.WriteLine(string.Join(",", await new Counter().Take(4)));
            Source<string> words = new Words();
            Console.WriteLine(string.Join(",", await words.Take(5)));
        }
    }
}
