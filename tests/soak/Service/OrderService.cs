namespace Soak.Service;

public sealed class OrderService(OrderRepository orders, EventQueue events)
{
    public async Task<PlaceResult> PlaceAsync(OrderRequest request, CancellationToken ct)
    {
        if (Validate(request) is { } error)
            return new PlaceResult(null, error);

        var lines = request.Lines!.Select((l, i) => new OrderLine(i + 1, l.Sku, l.Quantity, l.PriceCents)).ToList();
        var total = lines.Sum(l => l.Quantity * l.PriceCents);
        await orders.InsertAsync(request.Id, request.Customer, total, lines, ct);
        // Read back rather than echo: a replayed id answers with what was stored the first time.
        var stored = await orders.FindAsync(request.Id, ct)
            ?? throw new InvalidOperationException($"order {request.Id} missing right after it was stored");
        return new PlaceResult(stored, null);
    }

    private static string? Validate(OrderRequest request)
    {
        if (request.Id <= 0)
            return "id must be positive";
        if (string.IsNullOrWhiteSpace(request.Customer))
            return "customer is required";
        if (request.Lines is not { Count: > 0 })
            return "an order needs at least one line";
        foreach (var line in request.Lines)
        {
            if (line.Quantity <= 0)
                return $"quantity of {line.Sku} must be positive";
            if (line.PriceCents < 0)
                return $"price of {line.Sku} must not be negative";
        }
        return null;
    }

    public Task<Order?> GetAsync(long id, CancellationToken ct) => orders.FindAsync(id, ct);

    public async Task<EventAccepted?> RecordEventAsync(long orderId, EventRequest request, CancellationToken ct)
    {
        if (await orders.FindAsync(orderId, ct) is null)
            return null;
        await events.EnqueueAsync(new OrderEvent(orderId, request.EventId, request.Kind), ct);
        return new EventAccepted(orderId, request.EventId, request.Kind);
    }

    public Task<CustomerSummary> SummarizeAsync(string customer, CancellationToken ct) => orders.SummarizeAsync(customer, ct);

    public async Task<object> RecentAsync(string customer, int limit, CancellationToken ct)
    {
        var ids = await orders.RecentIdsAsync(customer, Math.Clamp(limit, 1, 100), ct);
        var totals = new List<long>(ids.Count);
        foreach (var id in ids)
            totals.Add((await orders.FindAsync(id, ct))?.TotalCents ?? 0);
        return new { customer, ids, totals };
    }
}
