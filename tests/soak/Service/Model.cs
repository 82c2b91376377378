namespace Soak.Service;

public sealed record OrderLineRequest(string Sku, int Quantity, long PriceCents);
public sealed record OrderRequest(long Id, string Customer, List<OrderLineRequest>? Lines);

public sealed record OrderLine(int Line, string Sku, int Quantity, long PriceCents);
public sealed record Order(long Id, string Customer, long TotalCents, IReadOnlyList<OrderLine> Lines);

public sealed record PlaceResult(Order? Order, string? Error);

public sealed record EventRequest(long EventId, string Kind);
public sealed record OrderEvent(long OrderId, long EventId, string Kind);
public sealed record EventAccepted(long OrderId, long EventId, string Kind);

public sealed record CustomerSummary(string Customer, int Orders, long TotalCents, long LargestCents);
public sealed record DrainReport(long Enqueued, long Persisted);

public sealed record MemoryReport(long HeapBytes, long WorkingSetBytes, int Gen2Collections, long Retries,
    long Async2Suspensions, long Async2Resumptions)
{
    public static MemoryReport Now(RetryCounter retries, Async2Counters async2) =>
        new(GC.GetTotalMemory(false), Environment.WorkingSet, GC.CollectionCount(2), retries.Count,
            async2.Suspensions, async2.Resumptions);
}
