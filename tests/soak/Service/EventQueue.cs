using System.Threading.Channels;

namespace Soak.Service;

// Accepted events wait here for EventWorker. Bounded, so a database outage pushes back on the
// endpoints (they wait to enqueue) instead of growing the queue without limit.
public sealed class EventQueue
{
    private readonly Channel<OrderEvent> channel = Channel.CreateBounded<OrderEvent>(
        new BoundedChannelOptions(512) { SingleReader = true, FullMode = BoundedChannelFullMode.Wait });
    private long enqueued;
    private long persisted;

    public ChannelReader<OrderEvent> Reader => channel.Reader;

    public async ValueTask EnqueueAsync(OrderEvent e, CancellationToken ct)
    {
        await channel.Writer.WriteAsync(e, ct);
        Interlocked.Increment(ref enqueued);
    }

    public void MarkPersisted(int count) => Interlocked.Add(ref persisted, count);

    public async Task<DrainReport> DrainAsync(CancellationToken ct)
    {
        var target = Interlocked.Read(ref enqueued);
        while (Interlocked.Read(ref persisted) < target)
            await Task.Delay(20, ct);
        return new DrainReport(target, Interlocked.Read(ref persisted));
    }
}

public sealed class EventWorker(EventQueue queue, EventRepository repository, ILogger<EventWorker> log) : BackgroundService
{
    private const int BatchSize = 64;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var batch = new List<OrderEvent>(BatchSize);
        while (await queue.Reader.WaitToReadAsync(stoppingToken))
        {
            while (batch.Count < BatchSize && queue.Reader.TryRead(out var e))
                batch.Add(e);
            await PersistAsync(batch, stoppingToken);
            queue.MarkPersisted(batch.Count);
            batch.Clear();
        }
    }

    // An accepted event was acknowledged to its client, so it is never dropped: past the retry
    // pipeline's budget the batch is tried again until the database takes it or the host stops.
    private async Task PersistAsync(List<OrderEvent> batch, CancellationToken ct)
    {
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                await repository.AppendAsync(batch, ct);
                return;
            }
            catch (Exception ex) when (!ct.IsCancellationRequested)
            {
                log.LogError(ex, "storing {Count} events failed (attempt {Attempt}); trying again", batch.Count, attempt);
                await Task.Delay(TimeSpan.FromSeconds(1), ct);
            }
        }
    }
}
