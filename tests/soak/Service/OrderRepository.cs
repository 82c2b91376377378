using Npgsql;

namespace Soak.Service;

public sealed class OrderRepository(Database database)
{
    // Returns whether this call created the order; false when it already existed (a client's
    // replay, or a retry whose first commit went through).
    public Task<bool> InsertAsync(long id, string customer, long totalCents, IReadOnlyList<OrderLine> lines, CancellationToken ct) =>
        database.InTransactionAsync(async (connection, transaction, token) =>
        {
            await using var insert = new NpgsqlCommand(
                "INSERT INTO orders (id, customer, total_cents) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
                connection, transaction);
            insert.Parameters.Add(new() { Value = id });
            insert.Parameters.Add(new() { Value = customer });
            insert.Parameters.Add(new() { Value = totalCents });
            if (await insert.ExecuteNonQueryAsync(token) == 0)
                return false;
            await InsertLinesAsync(connection, transaction, id, lines, token);
            return true;
        }, ct);

    private static async Task InsertLinesAsync(NpgsqlConnection connection, NpgsqlTransaction transaction, long orderId,
        IReadOnlyList<OrderLine> lines, CancellationToken ct)
    {
        var batch = new NpgsqlBatch(connection, transaction);
        await using (batch)
        {
            foreach (var line in lines)
            {
                var command = new NpgsqlBatchCommand(
                    "INSERT INTO order_lines (order_id, line, sku, quantity, price_cents) VALUES ($1, $2, $3, $4, $5)");
                command.Parameters.Add(new() { Value = orderId });
                command.Parameters.Add(new() { Value = line.Line });
                command.Parameters.Add(new() { Value = line.Sku });
                command.Parameters.Add(new() { Value = line.Quantity });
                command.Parameters.Add(new() { Value = line.PriceCents });
                batch.BatchCommands.Add(command);
            }
            await batch.ExecuteNonQueryAsync(ct);
        }
    }

    public Task<Order?> FindAsync(long id, CancellationToken ct) =>
        database.RunAsync(async (connection, token) =>
        {
            await using var command = new NpgsqlCommand("SELECT customer, total_cents FROM orders WHERE id = $1", connection);
            command.Parameters.Add(new() { Value = id });
            string customer;
            long total;
            await using (var reader = await command.ExecuteReaderAsync(token))
            {
                if (!await reader.ReadAsync(token))
                    return null;
                customer = reader.GetString(0);
                total = reader.GetInt64(1);
            }
            var lines = await ReadLinesAsync(connection, id, token);
            return new Order(id, customer, total, lines);
        }, ct);

    private static async Task<IReadOnlyList<OrderLine>> ReadLinesAsync(NpgsqlConnection connection, long orderId, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(
            "SELECT line, sku, quantity, price_cents FROM order_lines WHERE order_id = $1 ORDER BY line", connection);
        command.Parameters.Add(new() { Value = orderId });
        await using var reader = await command.ExecuteReaderAsync(ct);
        var lines = new List<OrderLine>();
        while (await reader.ReadAsync(ct))
            lines.Add(new OrderLine(reader.GetInt32(0), reader.GetString(1), reader.GetInt32(2), reader.GetInt64(3)));
        return lines;
    }

    public Task<CustomerSummary> SummarizeAsync(string customer, CancellationToken ct) =>
        database.RunAsync(async (connection, token) =>
        {
            await using var command = new NpgsqlCommand(
                "SELECT count(*)::int, coalesce(sum(total_cents), 0)::bigint, coalesce(max(total_cents), 0)::bigint FROM orders WHERE customer = $1",
                connection);
            command.Parameters.Add(new() { Value = customer });
            await using var reader = await command.ExecuteReaderAsync(token);
            await reader.ReadAsync(token);
            return new CustomerSummary(customer, reader.GetInt32(0), reader.GetInt64(1), reader.GetInt64(2));
        }, ct);

    public Task<List<long>> RecentIdsAsync(string customer, int limit, CancellationToken ct) =>
        database.RunAsync(async (connection, token) =>
        {
            await using var command = new NpgsqlCommand(
                "SELECT id FROM orders WHERE customer = $1 ORDER BY id DESC LIMIT $2", connection);
            command.Parameters.Add(new() { Value = customer });
            command.Parameters.Add(new() { Value = limit });
            await using var reader = await command.ExecuteReaderAsync(token);
            var ids = new List<long>();
            while (await reader.ReadAsync(token))
                ids.Add(reader.GetInt64(0));
            return ids;
        }, ct);
}

public sealed class EventRepository(Database database)
{
    // One transaction per batch. An event already stored (the batch is retried after its commit
    // went through) is skipped, so the order's counter counts each event once.
    public Task<int> AppendAsync(IReadOnlyList<OrderEvent> events, CancellationToken ct) =>
        database.InTransactionAsync(async (connection, transaction, token) =>
        {
            var stored = 0;
            foreach (var e in events)
            {
                if (await AppendOneAsync(connection, transaction, e, token))
                    stored++;
            }
            return stored;
        }, ct);

    private static async Task<bool> AppendOneAsync(NpgsqlConnection connection, NpgsqlTransaction transaction, OrderEvent e, CancellationToken ct)
    {
        await using var insert = new NpgsqlCommand(
            "INSERT INTO order_events (event_id, order_id, kind) VALUES ($1, $2, $3) ON CONFLICT (event_id) DO NOTHING",
            connection, transaction);
        insert.Parameters.Add(new() { Value = e.EventId });
        insert.Parameters.Add(new() { Value = e.OrderId });
        insert.Parameters.Add(new() { Value = e.Kind });
        if (await insert.ExecuteNonQueryAsync(ct) == 0)
            return false;
        await using var update = new NpgsqlCommand(
            "UPDATE orders SET status = $2, event_count = event_count + 1 WHERE id = $1", connection, transaction);
        update.Parameters.Add(new() { Value = e.OrderId });
        update.Parameters.Add(new() { Value = e.Kind });
        await update.ExecuteNonQueryAsync(ct);
        return true;
    }
}
