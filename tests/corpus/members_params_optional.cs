// Parameters C# allows on async methods: params arrays, params collections (params List<T>,
// params IEnumerable<T>, params ReadOnlySpan is not allowed in async methods), optional parameters
// of many types (null, default struct, enum, decimal, string), named arguments in any order,
// caller-info attributes, and optional parameters on virtual methods (the default comes from the
// static type of the call).
using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

class Api
{
    public virtual async Task<string> Fetch(string path, int retries = 3, string? tag = null)
    {
        await Program.Pause();
        return $"Api.Fetch({path}, {retries}, {tag ?? "null"})";
    }
}

sealed class CachedApi : Api
{
    public override async Task<string> Fetch(string path, int retries = 99, string? tag = "cached")
    {
        var inner = await base.Fetch(path, retries, tag);
        await Program.Pause();
        return "cached:" + inner;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<int> Sum(params int[] values)
    {
        int total = 0;
        foreach (var v in values)
        {
            await Pause();
            total += v;
        }
        return total;
    }

    static async Task<string> Names(string prefix, params List<string> names)
    {
        await Pause();
        return prefix + string.Join(",", names) + $" ({names.Count})";
    }

    static async Task<int> CountAll(params IEnumerable<object?> items)
    {
        await Pause();
        return items.Count();
    }

    static async Task<string> Options(
        int a = 1, string b = "two", decimal c = 3.5m, DayOfWeek d = DayOfWeek.Monday,
        DateTime e = default, CancellationToken token = default, object? f = null, double g = double.NaN)
    {
        await Pause();
        return $"{a} {b} {c} {d} {e.Ticks} {token.CanBeCanceled} {f ?? "null"} {g}";
    }

    static async Task<string> Caller(int x, [CallerMemberName] string member = "", [CallerArgumentExpression(nameof(x))] string expression = "")
    {
        await Pause();
        return $"{member}: {expression} = {x}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine($"{await Sum()} {await Sum(1)} {await Sum(1, 2, 3)} {await Sum(new[] { 4, 5 })}");
            Console.WriteLine($"{await Names("n:")} {await Names("n:", "a", "b")}");
            Console.WriteLine($"{await CountAll(1, "x", null)} {await CountAll()}");
            Console.WriteLine(await Options());
            Console.WriteLine(await Options(g: 1.5, a: 10, d: DayOfWeek.Friday));
            Console.WriteLine(await Options(2, f: 3, token: new CancellationTokenSource().Token));
            Console.WriteLine(await Caller(6 * 7));
            Api api = new CachedApi();
            Console.WriteLine(await api.Fetch("/x"));
            Console.WriteLine(await ((CachedApi)api).Fetch("/y"));
            Console.WriteLine(await new Api().Fetch("/z", tag: "t"));
        }
    }
}
