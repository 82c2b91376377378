using System.Threading.Channels;

namespace Async2.Bench.WebApi;

/// <summary>
/// A minimal API whose endpoints differ only in what the innermost of a few layers of async methods
/// waits on: nothing (everything completes synchronously), Task.Yield, a 1 ms timer, or a reply
/// from a background task through a channel. Started by `async2 bench` with
/// <c>--urls http://127.0.0.1:0</c>; prints the address it bound to, then serves until killed.
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        var builder = WebApplication.CreateBuilder(args);
        // Per-request log lines would measure the console, not async.
        builder.Logging.ClearProviders();
        var app = builder.Build();

        app.MapGet("/sync/{id:int}", async (int id) => await Quotes.QuoteAsync(id, Wait.None));
        app.MapGet("/yield/{id:int}", async (int id) => await Quotes.QuoteAsync(id, Wait.Yield));
        app.MapGet("/delay/{id:int}", async (int id) => await Quotes.QuoteAsync(id, Wait.Timer));
        app.MapGet("/channel/{id:int}", async (int id) => await Quotes.QuoteAsync(id, Wait.Channel));
        // Read by the driver before and after a load run: bytes allocated per request.
        app.MapGet("/stats/allocated", () => GC.GetTotalAllocatedBytes(precise: true).ToString(System.Globalization.CultureInfo.InvariantCulture));

        Backend.Start();
        app.Start();
        Console.WriteLine("listening on " + string.Join(' ', app.Urls));
        app.WaitForShutdown();
        return 0;
    }
}

public enum Wait { None, Yield, Timer, Channel }

public sealed record Quote(int Id, string Customer, int Quantity, decimal UnitPrice, decimal Total);

/// <summary>The endpoint's service layer: two lookups, one of which may wait.</summary>
internal static class Quotes
{
    public static async Task<Quote> QuoteAsync(int id, Wait wait)
    {
        var customer = await Customers.FindAsync(id, wait);
        var (quantity, unitPrice) = await Prices.PriceAsync(id);
        return new Quote(id, customer, quantity, unitPrice, quantity * unitPrice);
    }
}

internal static class Customers
{
    private static readonly string[] s_names = ["ada", "brian", "clarice", "dmitri", "edsger", "frances", "grace", "hedy"];

    public static async Task<string> FindAsync(int id, Wait wait)
    {
        var key = s_names[id % s_names.Length];
        return await Store.ReadAsync(key, wait);
    }
}

/// <summary>Always completes synchronously: the part of a request that hits a warm cache.</summary>
internal static class Prices
{
    public static async Task<(int Quantity, decimal UnitPrice)> PriceAsync(int id)
    {
        int quantity = await QuantityAsync(id);
        return (quantity, 1 + id * 37 % 1000 / 100m);
    }

    private static async Task<int> QuantityAsync(int id)
    {
        await Task.CompletedTask;
        return 1 + id % 9;
    }
}

/// <summary>The innermost layer: where a request waits, if it does.</summary>
internal static class Store
{
    public static async Task<string> ReadAsync(string key, Wait wait)
    {
        switch (wait)
        {
            case Wait.Yield:
                await Task.Yield();
                break;
            case Wait.Timer:
                await Task.Delay(1);
                break;
            case Wait.Channel:
                return await Backend.AskAsync(key);
        }
        return Backend.Lookup(key);
    }
}

/// <summary>
/// A single background task answering requests from a bounded channel, as a connection pool or a
/// batching client would: the request suspends until that task replies.
/// </summary>
internal static class Backend
{
    private sealed record Request(string Key, TaskCompletionSource<string> Reply);

    private static readonly Channel<Request> s_requests = Channel.CreateBounded<Request>(new BoundedChannelOptions(1024) { SingleReader = true });

    public static string Lookup(string key) => key.ToUpperInvariant();

    public static async Task<string> AskAsync(string key)
    {
        // Asynchronous continuations: the reply must not run the request's continuation on the backend's loop.
        var reply = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        await s_requests.Writer.WriteAsync(new Request(key, reply));
        return await reply.Task;
    }

    public static void Start() => _ = Task.Run(ServeAsync);

    private static async Task ServeAsync()
    {
        await foreach (var request in s_requests.Reader.ReadAllAsync())
            request.Reply.SetResult(Lookup(request.Key));
    }
}
