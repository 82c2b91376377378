using System.Diagnostics;
using System.Text.Json;
using System.Threading.Channels;

namespace Async2.Bench;

/// <summary>
/// Application scenario "JSON → async stream" (seed 002): orders are deserialized from a stream as
/// they arrive (<see cref="JsonSerializer.DeserializeAsyncEnumerable{TValue}(Stream, JsonSerializerOptions?, CancellationToken)"/>),
/// priced and ranked by two async iterators, handed from a producer task to a consumer through a
/// bounded channel, and serialized to an output stream. The output's hash goes with every cell so
/// the driver can refuse a variant whose output differs from the classic build's.
/// </summary>
internal static class Pipeline
{
    public sealed record Order(int Id, string Customer, string Category, int Quantity, decimal UnitPrice);

    public sealed record Line(int Id, string Customer, string Category, decimal Total, decimal CategoryTotal, int Rank, bool Flagged);

    private static readonly JsonSerializerOptions s_json = new() { PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    private static readonly string[] s_customers = ["ada", "brian", "clarice", "dmitri", "edsger", "frances", "grace", "hedy"];
    private static readonly string[] s_categories = ["books", "tools", "toys", "food", "garden"];

    public static void Run(Options options)
    {
        int records = options.Quick ? 50_000 : 100_000;
        var payload = Payload(records);
        string @case = $"JSON pipeline, {records:N0} records";
        (uint Hash, long Bytes, int Lines)? first = null;
        // CPU time per record of every round; the last options.Rounds are the measured ones. On a
        // busy machine it moves less than the wall-clock rate does.
        var cpuPerRecord = new List<double>();
        Sample Round()
        {
            long bytes = GC.GetTotalAllocatedBytes(precise: true);
            var cpu = Environment.CpuUsage.TotalTime;
            long t0 = Stopwatch.GetTimestamp();
            var output = new HashingStream();
            int lines = Runner.Wait(RunOnce(new TrickleStream(payload), output));
            double seconds = Runner.Ms(Stopwatch.GetTimestamp() - t0) / 1000;
            cpuPerRecord.Add((Environment.CpuUsage.TotalTime - cpu).TotalMicroseconds / records);
            bytes = GC.GetTotalAllocatedBytes(precise: true) - bytes;
            var result = (output.Hash, output.Length, lines);
            first ??= result;
            if (result != first)
                throw new InvalidOperationException($"output differs between rounds: {result} after {first}");
            return new Sample(records / seconds, (double)bytes / records);
        }
        try
        {
            // System.Text.Json's and Channels' code tiers up for seconds (its instrumented tier runs
            // slower than tier 0): rounds measured before it is done read up to 3x low, in every build.
            var (median, bytesPerOp, rounds) = Runner.Run(options, Round, minWarmupMs: options.Quick ? 3000 : 5000);
            Report.Cell("apps", Model.Name, @case, "records/s", median, bytesPerOp, rounds, extra: new Dictionary<string, double>
            {
                ["checksum"] = first!.Value.Hash,
                ["outputBytes"] = first.Value.Bytes,
                ["lines"] = first.Value.Lines,
                ["cpuUsPerRecord"] = Runner.Median(cpuPerRecord.TakeLast(options.Rounds).ToArray()),
            });
        }
        catch (Exception e)
        {
            Report.Failed("apps", Model.Name, @case, "records/s", $"{e.GetType().Name}: {e.Message}");
        }
    }

    /// <summary>A JSON array of <paramref name="count"/> orders, the same bytes in every process; one in seven has quantity 0 and is dropped.</summary>
    private static byte[] Payload(int count)
    {
        var orders = new List<Order>(count);
        for (int i = 0; i < count; i++)
            orders.Add(new Order(i, s_customers[i * 5 % s_customers.Length], s_categories[i * 3 % s_categories.Length], i % 7, 1 + i * 37 % 1000 / 100m));
        return JsonSerializer.SerializeToUtf8Bytes(orders, s_json);
    }

    private static async Task<int> RunOnce(Stream input, Stream output)
    {
        var channel = Channel.CreateBounded<Line>(new BoundedChannelOptions(256) { SingleReader = true, SingleWriter = true });
        var orders = JsonSerializer.DeserializeAsyncEnumerable<Order>(input, s_json);
        // The producer runs on the thread pool so that producer and consumer really hand records over.
        var producer = Task.Run(() => Produce(Rank(Price(orders)), channel.Writer));
        var consumer = Consume(channel.Reader, output);
        await producer;
        return await consumer;
    }

    private static async IAsyncEnumerable<Line> Price(IAsyncEnumerable<Order?> orders)
    {
        await foreach (var order in orders)
        {
            if (order is null || order.Quantity == 0)
                continue;
            decimal discount = await DiscountAsync(order);
            yield return new Line(order.Id, order.Customer, order.Category, order.Quantity * order.UnitPrice * (1 - discount), 0, 0, false);
        }
    }

    private static async IAsyncEnumerable<Line> Rank(IAsyncEnumerable<Line> lines)
    {
        var totals = new Dictionary<string, (decimal Total, int Count)>();
        await foreach (var line in lines)
        {
            var (total, count) = totals.GetValueOrDefault(line.Category);
            totals[line.Category] = (total + line.Total, count + 1);
            int rank = count + 1;
            yield return line with { CategoryTotal = total + line.Total, Rank = rank, Flagged = await FlagAsync(rank, line.Total) };
        }
    }

    /// <summary>Most lookups hit a warm cache and complete synchronously; one in fifty goes "remote" and suspends.</summary>
    private static async Task<decimal> DiscountAsync(Order order)
    {
        if (order.Id % 50 == 0)
            await Task.Yield();
        return await TierAsync(order.Customer) * 0.05m;
    }

    private static async Task<int> TierAsync(string customer)
    {
        await Task.CompletedTask;
        return customer.Length % 3;
    }

    /// <summary>Two layers that never suspend: the synchronous-completion path inside an iterator.</summary>
    private static async Task<bool> FlagAsync(int rank, decimal total) => rank == 1 || await IsLargeAsync(total);

    private static async Task<bool> IsLargeAsync(decimal total)
    {
        await Task.CompletedTask;
        return total > 50;
    }

    private static async Task Produce(IAsyncEnumerable<Line> lines, ChannelWriter<Line> writer)
    {
        try
        {
            await foreach (var line in lines)
                await writer.WriteAsync(line);
        }
        finally
        {
            writer.Complete();
        }
    }

    private static async Task<int> Consume(ChannelReader<Line> reader, Stream output)
    {
        int count = 0;
        await JsonSerializer.SerializeAsync(output, Counted(reader.ReadAllAsync()), s_json);
        return count;

        async IAsyncEnumerable<Line> Counted(IAsyncEnumerable<Line> lines)
        {
            await foreach (var line in lines)
            {
                count++;
                yield return line;
            }
        }
    }

    /// <summary>
    /// The input as a socket delivers it: at most 8 KB per read, and every read completes
    /// asynchronously, so the deserializer suspends as it would on the network.
    /// </summary>
    private sealed class TrickleStream(byte[] payload) : Stream
    {
        private int _position;

        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            await Task.Yield();
            int n = Math.Min(Math.Min(buffer.Length, 8192), payload.Length - _position);
            payload.AsMemory(_position, n).CopyTo(buffer);
            _position += n;
            return n;
        }

        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
            ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException("the pipeline reads asynchronously");
        public override bool CanRead => true;
        public override bool CanSeek => false;
        public override bool CanWrite => false;
        public override long Length => throw new NotSupportedException();
        public override long Position { get => _position; set => throw new NotSupportedException(); }
        public override void Flush() { }
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }

    /// <summary>The output sink: keeps only an FNV-1a hash and the length of what was written, so the output costs no memory.</summary>
    private sealed class HashingStream : Stream
    {
        public uint Hash { get; private set; } = 2166136261;
        private long _length;

        public override void Write(ReadOnlySpan<byte> buffer)
        {
            uint hash = Hash;
            foreach (byte b in buffer)
                hash = (hash ^ b) * 16777619;
            Hash = hash;
            _length += buffer.Length;
        }

        public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

        public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
        {
            Write(buffer.Span);
            return ValueTask.CompletedTask;
        }

        public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        {
            Write(buffer.AsSpan(offset, count));
            return Task.CompletedTask;
        }

        public override Task FlushAsync(CancellationToken cancellationToken) => Task.CompletedTask;
        public override void Flush() { }
        public override bool CanRead => false;
        public override bool CanSeek => false;
        public override bool CanWrite => true;
        public override long Length => _length;
        public override long Position { get => _length; set => throw new NotSupportedException(); }
        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
    }
}
