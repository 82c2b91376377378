// Real-world: an async CSV import job. Lines are read with StreamReader.ReadLineAsync from a
// custom Stream that hands out a few bytes per ReadAsync (and yields), each line is parsed
// synchronously with Span<T>/stackalloc and ref locals in blocks between awaits (C# 13 allows
// them in async methods when no await intervenes), rows are validated by an async rule set,
// batched into collection expressions with spreads of awaited lists, saved through an
// interface with ??= lazily created async sinks, null-conditional awaits, a System.Threading.Lock
// around a shared statistics object, and StringBuilder reports built with interpolated strings
// whose holes await (alignment and format specifiers included).
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

sealed class TrickleStream(byte[] data, int chunk) : Stream
{
    private int position;
    public static bool Suspend;
    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken token = default)
    {
        if (Suspend) await Task.Yield();
        int n = Math.Min(Math.Min(chunk, buffer.Length), data.Length - position);
        data.AsMemory(position, n).CopyTo(buffer);
        position += n;
        return n;
    }
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken token) =>
        ReadAsync(buffer.AsMemory(offset, count), token).AsTask();
    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException("sync read");
    public override bool CanRead => true;
    public override bool CanSeek => false;
    public override bool CanWrite => false;
    public override long Length => data.Length;
    public override long Position { get => position; set => throw new NotSupportedException(); }
    public override void Flush() { }
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}

readonly record struct Row(int Line, string Sku, int Quantity, decimal Price);

interface ISink
{
    Task<int> SaveAsync(IReadOnlyList<Row> rows);
}

sealed class MemorySink(string name) : ISink
{
    public readonly List<string> Saved = new();
    public async Task<int> SaveAsync(IReadOnlyList<Row> rows)
    {
        await Task.Delay(TrickleStream.Suspend ? 1 : 0);
        foreach (var row in rows) Saved.Add($"{name}:{row.Sku}x{row.Quantity}");
        return rows.Count;
    }
}

sealed class Stats
{
    public int Rows, Rejected;
    public decimal Total;
}

static class Importer
{
    static readonly Lock s_statsLock = new();
    static MemorySink? s_main, s_bulk;
    public static MemorySink? Audit;

    static bool TryParse(string line, int number, out Row row, out string error)
    {
        row = default;
        Span<Range> fields = stackalloc Range[4];
        ReadOnlySpan<char> text = line.AsSpan().Trim();
        int count = text.Split(fields, ',');
        if (count != 3) { error = $"expected 3 fields, got {count}"; return false; }
        ref Range qtyField = ref fields[1];
        if (!int.TryParse(text[qtyField], out int qty)) { error = $"bad quantity '{text[qtyField]}'"; return false; }
        if (!decimal.TryParse(text[fields[2]], System.Globalization.NumberStyles.Number, System.Globalization.CultureInfo.InvariantCulture, out var price))
        { error = "bad price"; return false; }
        row = new Row(number, text[fields[0]].ToString().ToUpperInvariant(), qty, price);
        error = "";
        return true;
    }

    static async Task<string?> Validate(Row row)
    {
        if (TrickleStream.Suspend) await Task.Yield();
        return row switch
        {
            { Quantity: <= 0 } => "quantity must be positive",
            { Price: > 1000m } => "price too high",
            { Sku.Length: > 8 } => "sku too long",
            _ => null,
        };
    }

    static async Task<List<Row>> Extra(int line)
    {
        await Task.Delay(TrickleStream.Suspend ? 1 : 0);
        return line % 2 == 0 ? [new Row(line * 100, "BONUS", 1, 0m)] : [];
    }

    public static async Task<string> Run(string csv, int chunk, Stats stats)
    {
        s_main = s_bulk = null;
        var report = new StringBuilder();
        using var reader = new StreamReader(new TrickleStream(Encoding.UTF8.GetBytes(csv), chunk), Encoding.UTF8, false, 16);
        List<Row> batch = [];
        int number = 0;
        string? line;
        while ((line = await reader.ReadLineAsync()) is not null)
        {
            number++;
            if (line.Length == 0 || line.StartsWith('#')) continue;
            if (!TryParse(line, number, out var row, out var error) || (error = await Validate(row) ?? "") != "")
            {
                lock (s_statsLock) stats.Rejected++;
                report.AppendLine($"line {number,2}: {error}");
                continue;
            }
            lock (s_statsLock)
            {
                stats.Rows++;
                stats.Total += row.Quantity * row.Price;
            }
            batch = [.. batch, row, .. await Extra(number)];
            if (batch.Count >= 3)
            {
                ISink sink = row.Quantity >= 10 ? (s_bulk ??= new MemorySink("bulk")) : (s_main ??= new MemorySink("main"));
                report.AppendLine($"flush {await sink.SaveAsync(batch),3} rows at line {number} total {stats.Total:F2}");
                await (Audit?.SaveAsync(batch) ?? Task.FromResult(0));
                batch = [];
            }
        }
        if (batch.Count > 0) report.Append($"final {await (s_main ??= new MemorySink("main")).SaveAsync(batch)} rows");
        report.AppendLine();
        report.AppendLine($"main [{string.Join(" ", s_main?.Saved ?? [])}]");
        report.AppendLine($"bulk [{string.Join(" ", s_bulk?.Saved ?? [])}]");
        return report.ToString();
    }
}

static class Program
{
    const string Csv = "# sku,qty,price\nkettle,2,25.00\ntoaster, 12 ,40.5\n\nmug,x,1\nplate,0,3\nchandelier,1,20\nbowl,20,2.25\ncup,3\nvase,1,5000\nfork,100,0.10\nspoon,7,0.2\n";

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            TrickleStream.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var (chunk, audit) in new[] { (1000, false), (3, true) })
            {
                var stats = new Stats();
                Importer.Audit = audit ? new MemorySink("audit") : null;
                Console.Write(await Importer.Run(Csv, chunk, stats));
                Console.WriteLine($"chunk {chunk}: rows {stats.Rows} rejected {stats.Rejected} total {stats.Total} audit {Importer.Audit?.Saved.Count}");
            }
        }
    }
}
