// Async lambdas as event handlers and in LINQ: an event of a Func<string, Task> delegate type whose
// handlers (lambdas, instance methods, static methods) are awaited one by one via
// GetInvocationList, handlers added and removed between raises, Select with an async lambda producing
// tasks awaited in order, and Aggregate over tasks chaining async lambdas.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

sealed class Publisher
{
    public event Func<string, Task>? Published;

    public async Task<int> Raise(string message)
    {
        int count = 0;
        if (Published is null) return 0;
        foreach (Func<string, Task> handler in Published.GetInvocationList())
        {
            await handler(message);
            count++;
        }
        return count;
    }
}

sealed class Subscriber(string name)
{
    public readonly List<string> Received = new();

    public async Task OnPublished(string message)
    {
        await Program.Pause();
        Received.Add($"{name}:{message}");
    }
}

static class Program
{
    public static bool Suspend;
    static readonly List<string> s_static = new();

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task StaticHandler(string message)
    {
        await Pause();
        s_static.Add(message.ToUpperInvariant());
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            s_static.Clear();
            var pub = new Publisher();
            var a = new Subscriber("a");
            var b = new Subscriber("b");
            var lambdaLog = new List<string>();
            Func<string, Task> lambda = async m => { await Pause(); lambdaLog.Add("lambda " + m); };
            pub.Published += a.OnPublished;
            pub.Published += lambda;
            pub.Published += StaticHandler;
            Console.WriteLine($"raised to {await pub.Raise("one")}");
            pub.Published -= lambda;
            pub.Published += b.OnPublished;
            Console.WriteLine($"raised to {await pub.Raise("two")}");
            Console.WriteLine($"{string.Join(",", a.Received)} | {string.Join(",", b.Received)} | {string.Join(",", lambdaLog)} | {string.Join(",", s_static)}");

            var lengths = new List<int>();
            foreach (var t in new[] { "x", "yy", "zzz" }.Select(async s => { await Pause(); return s.Length; }))
                lengths.Add(await t);
            Console.WriteLine(string.Join(",", lengths));

            Task<int> chain = Enumerable.Range(1, 4).Aggregate(Task.FromResult(0), async (acc, i) =>
            {
                int soFar = await acc;
                await Pause();
                return soFar * 10 + i;
            });
            Console.WriteLine(await chain);

            var lookup = (await Task.WhenAll(new[] { 3, 1, 2 }.Select(async n => { await Pause(); return (n, sq: n * n); })))
                .OrderBy(p => p.n).ToDictionary(p => p.n, p => p.sq);
            Console.WriteLine(string.Join(" ", lookup.Select(kv => $"{kv.Key}->{kv.Value}")));
        }
    }
}
