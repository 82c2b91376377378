// Async extension methods: on a class, on a struct (received by value, and by `in`/`ref` receiver
// where C# allows it only on non-async methods, so those wrap an async one), on an interface, on a
// generic type with constraints, on Task<T> itself (an awaitable combinator), and chained calls.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

sealed class Document
{
    public string Text = "";
}

struct Temperature
{
    public double Celsius;
}

static class Extensions
{
    public static async Task<int> WordCount(this Document doc)
    {
        await Program.Pause();
        return doc.Text.Split(' ', StringSplitOptions.RemoveEmptyEntries).Length;
    }

    public static async Task<Document> Append(this Document doc, string more)
    {
        await Program.Pause();
        doc.Text += " " + more;
        return doc;
    }

    public static async Task<double> Fahrenheit(this Temperature t)
    {
        await Program.Pause();
        t.Celsius += 0; // the receiver is a copy
        return t.Celsius * 9 / 5 + 32;
    }

    // ref receivers cannot be async; a synchronous wrapper reads the value and calls an async helper.
    public static Task<double> WarmedBy(ref this Temperature t, double delta)
    {
        t.Celsius += delta;
        return t.Fahrenheit();
    }

    public static async Task<string> JoinAsync<T>(this IEnumerable<T> items, string separator) where T : notnull
    {
        var parts = new List<string>();
        foreach (var item in items)
        {
            await Program.Pause();
            parts.Add(item.ToString()!);
        }
        return string.Join(separator, parts);
    }

    public static async Task<TOut> Then<TIn, TOut>(this Task<TIn> task, Func<TIn, TOut> next) => next(await task);

    public static async Task<T> OrDefault<T>(this Task<T> task, T fallback)
    {
        try
        {
            return await task;
        }
        catch (Exception e)
        {
            Console.WriteLine($"  fallback after {e.GetType().Name}");
            return fallback;
        }
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<int> Failing()
    {
        await Pause();
        throw new FormatException("bad");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var doc = new Document { Text = "one two" };
            Console.WriteLine(await (await doc.Append("three")).WordCount());
            Console.WriteLine(await doc.Append("four").Then(d => d.Text));
            var t = new Temperature { Celsius = 100 };
            Console.WriteLine($"{await t.Fahrenheit()} {await t.WarmedBy(10)} {t.Celsius}");
            Console.WriteLine(await new[] { 1, 2, 3 }.JoinAsync("-"));
            Console.WriteLine(await new List<string> { "x", "y" }.Select(s => s.ToUpperInvariant()).JoinAsync("+"));
            Console.WriteLine(await Failing().OrDefault(-7));
            Console.WriteLine(await doc.WordCount().Then(n => n * 2).OrDefault(0));
        }
    }
}
