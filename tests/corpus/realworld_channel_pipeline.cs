// Real-world: a producer/consumer pipeline over System.Threading.Channels: a producer, a parse
// stage, an enrich stage (async lookups through a Dictionary cache) and a sink, each a long-running
// async method started with Task.Run, connected by bounded channels (WriteAsync waits for room),
// completed in finally with the stage's exception, ReadAllAsync with a token, and a second run
// where the sink cancels the whole pipeline after a few items (every stage reports "stopped").
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;

readonly record struct RawLine(int Number, string Text);
readonly record struct Order(int Line, string Customer, decimal Amount);
sealed record EnrichedOrder(Order Order, string Region, decimal Total);

static class Pipeline
{
    public static bool Suspend;

    static readonly string[] s_lines =
    [
        "alice,10.50", "bob,3", "carol,7.25", "#comment", "dave,100", "erin,x", "frank,1.75", "alice,4",
    ];

    public static async Task Produce(ChannelWriter<RawLine> output, bool endless, CancellationToken token)
    {
        Exception? error = null;
        try
        {
            for (int i = 0; endless || i < s_lines.Length; i++)
            {
                if (Suspend && i % 3 == 0) await Task.Delay(1, token);
                await output.WriteAsync(new RawLine(i + 1, s_lines[i % s_lines.Length]), token);
            }
        }
        catch (Exception e) { error = e; throw; }
        finally { output.TryComplete(error); }
    }

    public static async Task<int> Parse(ChannelReader<RawLine> input, ChannelWriter<Order> output, CancellationToken token)
    {
        int rejected = 0;
        try
        {
            await foreach (var (number, text) in input.ReadAllAsync(token))
            {
                if (text.StartsWith('#')) continue;
                var parts = text.Split(',');
                if (!decimal.TryParse(parts[1], System.Globalization.CultureInfo.InvariantCulture, out var amount))
                {
                    rejected++;
                    continue;
                }
                await output.WriteAsync(new Order(number, parts[0], amount), token);
            }
            token.ThrowIfCancellationRequested(); // upstream may have ended because of the cancellation
            return rejected;
        }
        finally { output.TryComplete(); }
    }

    static readonly Dictionary<string, string> s_regionCache = new();

    static async ValueTask<string> RegionOf(string customer)
    {
        if (s_regionCache.TryGetValue(customer, out var cached)) return cached;
        if (Suspend) await Task.Yield();
        var region = (customer[0] - 'a') % 2 == 0 ? "north" : "south";
        s_regionCache[customer] = region;
        return region;
    }

    public static async Task Enrich(ChannelReader<Order> input, ChannelWriter<EnrichedOrder> output, CancellationToken token)
    {
        try
        {
            while (await input.WaitToReadAsync(token))
            {
                while (input.TryRead(out var order))
                {
                    var region = await RegionOf(order.Customer);
                    decimal tax = region switch { "north" => 0.10m, _ => 0.20m };
                    await output.WriteAsync(new EnrichedOrder(order, region, decimal.Round(order.Amount * (1 + tax), 2)), token);
                }
            }
            token.ThrowIfCancellationRequested(); // upstream may have ended because of the cancellation
        }
        finally { output.TryComplete(); }
    }

    public static async Task<List<string>> Sink(ChannelReader<EnrichedOrder> input, int? cancelAfter, CancellationTokenSource cts)
    {
        var seen = new List<string>();
        await foreach (var item in input.ReadAllAsync(cts.Token))
        {
            seen.Add($"#{item.Order.Line} {item.Order.Customer}@{item.Region} {item.Total}");
            if (seen.Count == cancelAfter)
            {
                cts.Cancel();
                break;
            }
        }
        return seen;
    }
}

static class Program
{
    static async Task<string> Outcome(Task task)
    {
        try { await task; return "completed"; }
        catch (OperationCanceledException) { return "stopped"; }
        catch (ChannelClosedException) { return "stopped"; }
    }

    static async Task RunPipeline(int? cancelAfter)
    {
        using var cts = new CancellationTokenSource();
        var raw = Channel.CreateBounded<RawLine>(new BoundedChannelOptions(2) { SingleReader = true, SingleWriter = true });
        var orders = Channel.CreateBounded<Order>(1);
        var enriched = Channel.CreateUnbounded<EnrichedOrder>();

        var producer = Task.Run(() => Pipeline.Produce(raw.Writer, endless: cancelAfter is not null, cts.Token));
        var parser = Task.Run(() => Pipeline.Parse(raw.Reader, orders.Writer, cts.Token));
        var enricher = Task.Run(() => Pipeline.Enrich(orders.Reader, enriched.Writer, cts.Token));
        List<string> seen;
        try
        {
            seen = await Pipeline.Sink(enriched.Reader, cancelAfter, cts);
        }
        catch (OperationCanceledException)
        {
            seen = new List<string> { "(sink canceled)" };
        }

        foreach (var line in seen) Console.WriteLine("  " + line);
        Console.WriteLine($"  producer {await Outcome(producer)}, parser {await Outcome(parser)}, enricher {await Outcome(enricher)}");
        if (cancelAfter is null) Console.WriteLine($"  rejected {await parser}");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Pipeline.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine("full run:");
            await RunPipeline(null);
            Console.WriteLine("canceled after 3:");
            await RunPipeline(3);
        }
    }
}
