using System.Net.Sockets;
using Npgsql;
using Polly;
using Polly.Retry;

namespace Soak.Service;

public sealed class RetryCounter
{
    private long count;
    public long Count => Interlocked.Read(ref count);
    public void Add() => Interlocked.Increment(ref count);
}

public static class DatabasePolicy
{
    // The budget (about 35 s of retrying) outlasts a database restart with crash recovery, so a
    // request that arrives during one waits instead of failing: clients see no error responses.
    public static ResiliencePipeline Create(RetryCounter counter, ILoggerFactory loggers)
    {
        var log = loggers.CreateLogger("Soak.Service.DatabasePolicy");
        return new ResiliencePipelineBuilder()
            .AddRetry(new RetryStrategyOptions
            {
                ShouldHandle = new PredicateBuilder().Handle<Exception>(IsTransient),
                MaxRetryAttempts = 40,
                BackoffType = DelayBackoffType.Exponential,
                Delay = TimeSpan.FromMilliseconds(100),
                MaxDelay = TimeSpan.FromSeconds(1),
                UseJitter = true,
                OnRetry = args =>
                {
                    counter.Add();
                    if (args.AttemptNumber == 0)
                        log.LogWarning("database call failed, retrying: {Message}", args.Outcome.Exception?.Message);
                    return ValueTask.CompletedTask;
                },
            })
            .Build();
    }

    // A server shutting down or starting up answers with 57P01..57P03, which Npgsql does not
    // count as transient; a killed server shows up as I/O failures, which it does.
    private static bool IsTransient(Exception ex) => ex switch
    {
        PostgresException { SqlState: "57P01" or "57P02" or "57P03" } => true,
        NpgsqlException { IsTransient: true } => true,
        SocketException or TimeoutException => true,
        _ => false,
    };
}

public sealed class Database(NpgsqlDataSource dataSource, ResiliencePipeline pipeline)
{
    public async Task<T> RunAsync<T>(Func<NpgsqlConnection, CancellationToken, Task<T>> work, CancellationToken ct) =>
        await pipeline.ExecuteAsync(async token =>
        {
            await using var connection = await dataSource.OpenConnectionAsync(token);
            return await work(connection, token);
        }, ct);

    // The whole transaction is the unit of retry: a broken connection rolls it back, and the
    // statements in it are written to be idempotent for when the commit went through but its
    // acknowledgement did not.
    public Task<T> InTransactionAsync<T>(Func<NpgsqlConnection, NpgsqlTransaction, CancellationToken, Task<T>> work, CancellationToken ct) =>
        RunAsync(async (connection, token) =>
        {
            await using var transaction = await connection.BeginTransactionAsync(token);
            var result = await work(connection, transaction, token);
            await transaction.CommitAsync(token);
            return result;
        }, ct);

    public Task EnsureSchemaAsync(CancellationToken ct) =>
        RunAsync(async (connection, token) =>
        {
            await using var command = new NpgsqlCommand("""
                CREATE TABLE IF NOT EXISTS orders (
                    id bigint PRIMARY KEY,
                    customer text NOT NULL,
                    total_cents bigint NOT NULL,
                    status text NOT NULL DEFAULT 'new',
                    event_count int NOT NULL DEFAULT 0);
                CREATE INDEX IF NOT EXISTS orders_customer ON orders (customer, id);
                CREATE TABLE IF NOT EXISTS order_lines (
                    order_id bigint NOT NULL REFERENCES orders (id),
                    line int NOT NULL,
                    sku text NOT NULL,
                    quantity int NOT NULL,
                    price_cents bigint NOT NULL,
                    PRIMARY KEY (order_id, line));
                CREATE TABLE IF NOT EXISTS order_events (
                    event_id bigint PRIMARY KEY,
                    order_id bigint NOT NULL REFERENCES orders (id),
                    kind text NOT NULL);
                """, connection);
            return await command.ExecuteNonQueryAsync(token);
        }, ct);
}
