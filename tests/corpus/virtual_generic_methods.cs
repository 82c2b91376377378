// Generic virtual methods: overridden in a non-generic and in a generic derived class, called through
// the base with reference and value type arguments (shared and unshared code), a classic override
// mixed in ([RuntimeAsyncMethodGeneration(false)]), base calls with the method's instantiation, and
// generic virtual methods of interfaces implemented by generic classes.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

class Formatter
{
    public virtual async Task<string> Format<T>(T value)
    {
        await Program.Pause();
        return $"<{typeof(T).Name}:{value}>";
    }

    public virtual async Task<List<T>> Repeat<T>(T value, int n)
    {
        var list = new List<T>();
        for (int i = 0; i < n; i++)
        {
            if (i % 2 == 1) await Program.Pause();
            list.Add(value);
        }
        return list;
    }
}

class Quoting : Formatter
{
    public override async Task<string> Format<T>(T value)
    {
        var inner = await base.Format(value);
        await Program.Pause();
        return "'" + inner + "'";
    }
}

class Tagged<TTag> : Quoting
{
    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<string> Format<T>(T value)
    {
        await Program.Pause();
        return typeof(TTag).Name + "#" + await base.Format(value);
    }

    public override async Task<List<T>> Repeat<T>(T value, int n)
    {
        var list = await base.Repeat(value, n + 1);
        list.Reverse();
        return list;
    }
}

sealed class Bracketed<TTag> : Tagged<TTag>
{
    public override async Task<string> Format<T>(T value) => "[" + await base.Format(value) + "]";
}

interface IConverter
{
    Task<TOut> Convert<TIn, TOut>(TIn input, Func<TIn, TOut> f);
}

sealed class SlowConverter<TState> : IConverter
{
    public TState State = default!;
    public async Task<TOut> Convert<TIn, TOut>(TIn input, Func<TIn, TOut> f)
    {
        await Program.Pause();
        return f(input);
    }
}

struct Point
{
    public int X, Y;
    public override string ToString() => $"({X},{Y})";
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> FormatAll(Formatter f)
    {
        var parts = new List<string>
        {
            await f.Format(1),
            await f.Format("s"),
            await f.Format(new Point { X = 1, Y = 2 }),
            await f.Format<object>(2.5),
            await f.Format((3, "t")),
        };
        return string.Join(" ", parts);
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var f in new Formatter[] { new Formatter(), new Quoting(), new Tagged<int>(), new Tagged<string>(), new Bracketed<Point>() })
            {
                Console.WriteLine($"{f.GetType().Name}: {await FormatAll(f)}");
                Console.WriteLine($"  {string.Join(",", await f.Repeat("r", 2))} {string.Join(",", await f.Repeat(7L, 3))}");
            }
            IConverter c = new SlowConverter<string>();
            Console.WriteLine(await c.Convert(21, x => x * 2));
            Console.WriteLine(await c.Convert("abc", s => s.Length));
            Console.WriteLine(await c.Convert(new Point { X = 3 }, p => p.ToString()));
        }
    }
}
