// A batch ETL job. Hand-written async LINQ operators over IAsyncEnumerable (generic, with
// constraints, async lambdas as Func<T, ValueTask<bool>>), a Result<T> readonly struct returned in
// ValueTask<Result<T>> and matched with property patterns, a struct IAsyncDisposable transaction
// used with `await using` (its state mutated through the copy), spilled expressions in business
// code (array elements compounded with awaited indexes and values, ??= with awaits, tuple swaps,
// awaits inside interpolations with format specifiers, ?. calls with awaited arguments), nested
// try/catch/finally with awaits in every part and a rethrow after an await in a catch, a retry
// loop written with goto, and a checked total that overflows on purpose.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

readonly record struct Result<T>(T? Value, string? Error)
{
    public bool Ok => Error is null;
    public static Result<T> Success(T value) => new(value, null);
    public static Result<T> Fail(string error) => new(default, error);
}

sealed record Row(int Id, string Region, string Product, decimal Amount, int Qty);

static class AsyncLinq
{
    public static async IAsyncEnumerable<TOut> SelectAwait<TIn, TOut>(this IAsyncEnumerable<TIn> source, Func<TIn, ValueTask<TOut>> map,
        [EnumeratorCancellation] CancellationToken token = default)
    {
        await foreach (var item in source.WithCancellation(token))
            yield return await map(item);
    }

    public static async IAsyncEnumerable<T> WhereAwait<T>(this IAsyncEnumerable<T> source, Func<T, ValueTask<bool>> keep)
    {
        await foreach (var item in source)
            if (await keep(item))
                yield return item;
    }

    public static async IAsyncEnumerable<T[]> Batch<T>(this IAsyncEnumerable<T> source, int size)
    {
        var buffer = new List<T>(size);
        await foreach (var item in source)
        {
            buffer.Add(item);
            if (buffer.Count == size) { yield return buffer.ToArray(); buffer.Clear(); }
        }
        if (buffer.Count > 0) yield return buffer.ToArray();
    }

    public static async ValueTask<TAcc> AggregateAwait<T, TAcc>(this IAsyncEnumerable<T> source, TAcc seed, Func<TAcc, T, ValueTask<TAcc>> step)
        where TAcc : notnull
    {
        var acc = seed;
        await foreach (var item in source) acc = await step(acc, item);
        return acc;
    }
}

struct Transaction : IAsyncDisposable
{
    private readonly List<string> log;
    public int Writes;
    public bool Committed;
    public Transaction(List<string> log, string name) { this.log = log; log.Add($"begin {name}"); Writes = 0; Committed = false; }
    public async ValueTask Write(string what) { if (Source.Suspend) await Task.Yield(); Writes++; log.Add($"  write {what}"); }
    public void Commit() { Committed = true; log.Add($"commit {Writes}"); }
    public async ValueTask DisposeAsync()
    {
        if (Source.Suspend) await Task.Yield();
        log.Add(Committed ? $"dispose after commit ({Writes} writes)" : $"rollback {Writes} writes");
    }
}

static class Source
{
    public static bool Suspend;
    static readonly string[] Lines =
    [
        "1;north;kettle;25.50;2", "2;south;toaster;40;1", "3;north;mug;4.5;10", "x;bad;row", "4;east;kettle;25.50;1",
        "5;south;mug;4.5;3", "6;west;spoon;-1;2", "7;north;toaster;40;2", "8;east;mug;4.5;0", "9;west;kettle;25.50;4",
    ];

    public static async IAsyncEnumerable<string> ReadLines()
    {
        for (int i = 0; i < Lines.Length; i++)
        {
            if (Suspend && i % 3 == 2) await Task.Delay(1);
            yield return Lines[i];
        }
    }

    public static async ValueTask<Result<Row>> Parse(string line)
    {
        if (Suspend) await Task.Yield();
        var p = line.Split(';');
        if (p.Length != 5 || !int.TryParse(p[0], out var id)) return Result<Row>.Fail($"malformed '{line}'");
        var row = new Row(id, p[1], p[2], decimal.Parse(p[3], CultureInfo.InvariantCulture), int.Parse(p[4]));
        return row.Amount < 0 ? Result<Row>.Fail($"negative amount in {id}") : Result<Row>.Success(row);
    }

    public static async ValueTask<int> RegionIndex(string region)
    {
        if (Suspend) await Task.Yield();
        return region switch { "north" => 0, "south" => 1, "east" => 2, "west" => 3, _ => throw new ArgumentException(region) };
    }

    public static async ValueTask<decimal> Tax(Row row) { if (Suspend) await Task.Yield(); return Math.Round(row.Amount * row.Qty * 0.2m, 2); }
}

sealed class Warehouse
{
    public int Failures;
    public readonly List<string> Log = new();
    public Dictionary<string, int>? Stock;

    public async Task<Dictionary<string, int>> LoadStock()
    {
        await Task.Delay(Source.Suspend ? 1 : 0);
        Log.Add("stock loaded");
        return new() { ["kettle"] = 5, ["toaster"] = 2, ["mug"] = 20 };
    }

    public async Task Store(Row[] batch, int number)
    {
        int attempt = 0;
    retry:
        attempt++;
        {
        await using var tx = new Transaction(Log, $"batch{number}/try{attempt}");
        try
        {
            foreach (var row in batch)
            {
                Stock ??= await LoadStock();
                if (!Stock.TryGetValue(row.Product, out var have)) throw new KeyNotFoundException(row.Product);
                if (have < row.Qty)
                {
                    if (attempt < 2) throw new TimeoutException($"lock wait on {row.Product}");
                    throw new InvalidOperationException($"short of {row.Product}: {have} < {row.Qty}");
                }
                Stock[row.Product] = have - row.Qty;
                await tx.Write($"{row.Id}:{row.Product}x{row.Qty}");
            }
            tx.Commit();
        }
        catch (TimeoutException e)
        {
            await Task.Yield();
            Log.Add($"timeout: {e.Message}, writes so far {tx.Writes}");
            goto retry;
        }
        catch (InvalidOperationException e) when (Failures++ < 5)
        {
            await Task.Delay(Source.Suspend ? 1 : 0);
            Log.Add($"failed: {e.Message}");
            throw;
        }
        finally
        {
            if (Source.Suspend) await Task.Yield();
            Log.Add($"end try {attempt} committed={tx.Committed}");
        }
        }
    }
}

sealed class Report
{
    public readonly decimal[] ByRegion = new decimal[4];
    public readonly int[] Count = new int[4];
    public decimal Tax;
    public (string Best, string Worst) Extremes = ("?", "?");
    public List<string>? Notes;
    public void Note(string s) => (Notes ??= new()).Add(s);
}

static class Program
{
    static async Task RunJob()
    {
        var report = new Report();
        var errors = new List<string>();
        var house = new Warehouse();
        var rows = Source.ReadLines()
            .SelectAwait(Source.Parse)
            .WhereAwait(async r =>
            {
                if (r is { Ok: false, Error: var err }) { errors.Add(err!); return false; }
                if (Source.Suspend) await Task.Yield();
                return r.Value!.Qty > 0;
            })
            .SelectAwait(r => ValueTask.FromResult(r.Value!));

        int batchNo = 0;
        await foreach (var batch in rows.Batch(3))
        {
            batchNo++;
            foreach (var row in batch)
            {
                report.ByRegion[await Source.RegionIndex(row.Region)] += row.Amount * row.Qty + await Source.Tax(row);
                report.Count[await Source.RegionIndex(row.Region)]++;
                report.Tax += await Source.Tax(row);
            }
            try
            {
                await house.Store(batch, batchNo);
            }
            catch (InvalidOperationException e)
            {
                report.Note($"batch {batchNo} rejected: {e.Message}");
            }
            report.Notes?.Add($"after batch {batchNo}: {await Describe(report)}");
        }

        string[] names = ["north", "south", "east", "west"];
        int best = 0, worst = 0;
        for (int i = 1; i < 4; i++)
        {
            if (report.ByRegion[i] > report.ByRegion[best]) best = i;
            if (report.ByRegion[i] < report.ByRegion[worst]) worst = i;
        }
        report.Extremes = (await Name(names, best), await Name(names, worst));
        (report.Extremes.Best, report.Extremes.Worst) = (report.Extremes.Worst, await Name(names, best));

        Console.WriteLine($"regions: {string.Join(" ", names.Select((n, i) => $"{n}={report.ByRegion[i]:F2}/{report.Count[i]}"))}");
        Console.WriteLine($"tax {report.Tax:F2}; extremes {report.Extremes}; stock {string.Join(",", house.Stock!.OrderBy(k => k.Key).Select(k => $"{k.Key}={k.Value}"))}");
        Console.WriteLine($"errors: {string.Join(" | ", errors)}");
        Console.WriteLine($"notes: {string.Join(" | ", report.Notes ?? new())}");
        foreach (var line in house.Log) Console.WriteLine("  " + line);

        var totals = await rows.AggregateAwait((Sum: 0m, N: 0), async (acc, r) =>
        {
            if (Source.Suspend) await Task.Yield();
            return (acc.Sum + r.Amount * r.Qty, acc.N + 1);
        });
        Console.WriteLine($"aggregate: {totals.Sum:F2} over {totals.N}, formatted {await Total(totals.Sum),12:N2}|");

        try
        {
            long big = await rows.AggregateAwait(long.MaxValue - 20, async (acc, r) => checked(acc + await Qty(r)));
            Console.WriteLine($"no overflow? {big}");
        }
        catch (OverflowException e) { Console.WriteLine($"overflow caught: {e.GetType().Name}"); }
    }

    static async ValueTask<string> Describe(Report r)
    {
        if (Source.Suspend) await Task.Yield();
        return $"{r.Count.Sum()} rows, tax {r.Tax:F1}";
    }

    static async ValueTask<string> Name(string[] names, int i) { if (Source.Suspend) await Task.Yield(); return names[i]; }
    static async ValueTask<decimal> Total(decimal d) { if (Source.Suspend) await Task.Yield(); return d; }
    static async ValueTask<int> Qty(Row r) { if (Source.Suspend) await Task.Yield(); return r.Qty; }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Source.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            await RunJob();
            var loop = new SingleThreadLoop("etl");
            loop.RunUntilComplete(async () =>
            {
                await RunJob();
                Console.WriteLine($"on loop: {loop.IsCurrent}");
            });
            loop.Stop();
        }
    }
}
