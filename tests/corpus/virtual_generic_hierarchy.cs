// Virtual async methods of generic class hierarchies with mixed models: Base<T> rewritten,
// Derived<T> overriding it classically ([RuntimeAsyncMethodGeneration(false)]), a non-generic
// MoreDerived : Derived<string> overriding again (rewritten), and Wrapper<T> : Base<List<T>>
// closing the base over a constructed type; calls through Base<T> with reference and value type
// arguments, base calls at every level, and a generic virtual method on a generic class.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

class Base<T>
{
    public virtual async Task<string> Show(T value)
    {
        await Program.Pause();
        return $"Base<{typeof(T).Name}>({value})";
    }

    public virtual async Task<(T, TOther)> Pair<TOther>(T value, TOther other)
    {
        await Program.Pause();
        return (value, other);
    }

    public async Task<string> ShowTwice(T value) => await Show(value) + " " + await Show(value);
}

class Derived<T> : Base<T>
{
    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<string> Show(T value)
    {
        var b = await base.Show(value);
        await Program.Pause();
        return $"Derived[{b}]";
    }

    public override async Task<(T, TOther)> Pair<TOther>(T value, TOther other)
    {
        var (v, o) = await base.Pair(value, other);
        return (v, o);
    }
}

sealed class MoreDerived : Derived<string>
{
    public override async Task<string> Show(string value)
    {
        await Program.Pause();
        return "More{" + await base.Show(value.ToUpperInvariant()) + "}";
    }

    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<(string, TOther)> Pair<TOther>(string value, TOther other)
    {
        await Program.Pause();
        return await base.Pair(value + "!", other);
    }
}

sealed class Wrapper<T> : Base<List<T>>
{
    public override async Task<string> Show(List<T> value)
    {
        var inner = await base.Show(value);
        return $"Wrapper<{typeof(T).Name}> count={value.Count} {inner}";
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Use<T>(Base<T> b, T value) =>
        $"{await b.Show(value)} | {await b.ShowTwice(value)} | {await b.Pair(value, 1.5)} | {await b.Pair(value, "o")}";

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Use(new Base<int>(), 1));
            Console.WriteLine(await Use(new Derived<int>(), 2));
            Console.WriteLine(await Use(new Derived<object>(), "obj"));
            Console.WriteLine(await Use<string>(new MoreDerived(), "m"));
            Console.WriteLine(await Use(new Derived<string>(), "d"));
            Console.WriteLine(await Use(new Wrapper<int>(), new List<int> { 1, 2 }));
            Derived<string> viaDerived = new MoreDerived();
            Console.WriteLine(await viaDerived.Show("x"));
        }
    }
}
