// Generic delegates over generic async methods: method groups of generic async methods converted to
// Func<T, Task<U>> at several instantiations (reference and value), a generic delegate type with a
// generic async method of a generic class as target, delegates to generic virtual methods (bound
// through the receiver's override), and generic async lambdas inside generic methods capturing T
// values.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

delegate Task<TOut> AsyncMap<TIn, TOut>(TIn input);

class Box<T>
{
    public T Content;
    public Box(T content) => Content = content;

    public async Task<TOut> MapWith<TOut>(Func<T, TOut> f)
    {
        await Program.Pause();
        return f(Content);
    }

    public virtual async Task<string> Render<TStyle>(TStyle style)
    {
        await Program.Pause();
        return $"{style}:{Content}";
    }
}

sealed class FancyBox<T> : Box<T>
{
    public FancyBox(T content) : base(content) { }
    public override async Task<string> Render<TStyle>(TStyle style) => $"*{await base.Render(style)}*";
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<List<T>> Twice<T>(T value)
    {
        await Pause();
        return new List<T> { value, value };
    }

    static async Task<string> RunAll<TIn, TOut>(IEnumerable<TIn> inputs, AsyncMap<TIn, TOut> map)
    {
        var parts = new List<string>();
        foreach (var i in inputs)
            parts.Add($"{await map(i)}");
        return string.Join(",", parts);
    }

    static async Task<string> Captures<T>(T a, T b)
    {
        Func<T, Task<(T, T)>> pairWith = async x => { await Pause(); return (a, x); };
        var p1 = await pairWith(b);
        var p2 = await pairWith(a);
        return $"{p1} {p2}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Func<int, Task<List<int>>> ints = Twice;
            Func<string, Task<List<string>>> strings = Twice;
            Console.WriteLine($"{(await ints(3)).Count} {string.Join("", await strings("ab"))}");
            Console.WriteLine(await RunAll(new[] { 1, 2 }, new AsyncMap<int, List<int>>(Twice)));
            var box = new Box<double>(2.5);
            AsyncMap<Func<double, string>, string> map = box.MapWith;
            Console.WriteLine(await RunAll(new Func<double, string>[] { d => $"{d * 2}", d => $"{-d}" }, map));
            Box<string> fancy = new FancyBox<string>("gift");
            Func<int, Task<string>> render = fancy.Render;      // bound to the override
            Func<char, Task<string>> renderPlain = new Box<string>("plain").Render;
            Console.WriteLine($"{await render(1)} {await renderPlain('c')}");
            Console.WriteLine($"{await Captures(1, 2)} {await Captures("x", "y")}");
        }
    }
}
