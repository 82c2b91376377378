// The soak's sample service: orders over PostgreSQL, written the way an ASP.NET Core user writes one.
// Every response depends only on the request sequence of its client (no clocks, no random ids), so
// the classic and the Async2 build can be compared byte for byte (tests/soak/README.md).
using System.Threading.Channels;
using Npgsql;
using Soak.Service;

var builder = WebApplication.CreateBuilder(args);
builder.Logging.SetMinimumLevel(LogLevel.Warning);

var connectionString = builder.Configuration.GetConnectionString("Orders")
    ?? throw new InvalidOperationException("no connection string: pass --ConnectionStrings:Orders=... or set ConnectionStrings__Orders");

builder.Services.AddSingleton(_ => NpgsqlDataSource.Create(connectionString));
builder.Services.AddSingleton<RetryCounter>();
builder.Services.AddSingleton<Async2Counters>();
builder.Services.AddSingleton(sp => DatabasePolicy.Create(sp.GetRequiredService<RetryCounter>(), sp.GetRequiredService<ILoggerFactory>()));
builder.Services.AddSingleton<Database>();
builder.Services.AddSingleton<OrderRepository>();
builder.Services.AddSingleton<EventRepository>();
builder.Services.AddSingleton<EventQueue>();
builder.Services.AddSingleton<OrderService>();
builder.Services.AddHostedService<EventWorker>();

var app = builder.Build();
// Listening from the start, before the first request or database call.
app.Services.GetRequiredService<Async2Counters>();

await app.Services.GetRequiredService<Database>().EnsureSchemaAsync(CancellationToken.None);

app.MapPost("/orders", async (OrderRequest request, OrderService orders, CancellationToken ct) =>
{
    var result = await orders.PlaceAsync(request, ct);
    return result.Error is { } error
        ? Results.BadRequest(new { error })
        : Results.Created($"/orders/{result.Order!.Id}", result.Order);
});

app.MapGet("/orders/{id:long}", async (long id, OrderService orders, CancellationToken ct) =>
    await orders.GetAsync(id, ct) is { } order ? Results.Ok(order) : Results.NotFound(new { id }));

app.MapPost("/orders/{id:long}/events", async (long id, EventRequest request, OrderService orders, CancellationToken ct) =>
{
    var accepted = await orders.RecordEventAsync(id, request, ct);
    return accepted is null ? Results.NotFound(new { id }) : Results.Accepted($"/orders/{id}", accepted);
});

app.MapGet("/customers/{customer}/summary", async (string customer, OrderService orders, CancellationToken ct) =>
    Results.Ok(await orders.SummarizeAsync(customer, ct)));

app.MapGet("/customers/{customer}/orders", async (string customer, int? limit, OrderService orders, CancellationToken ct) =>
    Results.Ok(await orders.RecentAsync(customer, limit ?? 10, ct)));

// For the driver only: memory figures, a full collection, waiting for the worker, a clean stop.
app.MapGet("/admin/memory", (RetryCounter retries, Async2Counters async2) => Results.Ok(MemoryReport.Now(retries, async2)));
app.MapPost("/admin/gc", (RetryCounter retries, Async2Counters async2) =>
{
    // Twice, so objects kept alive by finalizers in the first pass are gone too.
    for (var i = 0; i < 2; i++)
    {
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        GC.WaitForPendingFinalizers();
    }
    return Results.Ok(MemoryReport.Now(retries, async2));
});
app.MapPost("/admin/drain", async (EventQueue queue, CancellationToken ct) => Results.Ok(await queue.DrainAsync(ct)));
app.MapPost("/admin/shutdown", (IHostApplicationLifetime lifetime) =>
{
    lifetime.StopApplication();
    return Results.Ok();
});

await app.RunAsync();
