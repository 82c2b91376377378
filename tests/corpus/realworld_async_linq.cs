// Real-world: hand-written async LINQ combinators over IAsyncEnumerable<T> as libraries write
// them: Where/Select with async predicates and selectors (Func<T, ValueTask<bool>>), Take, Chunk,
// a SelectMany-like flattening, FirstOrDefaultAsync/SumAsync/ToListAsync consumers that are plain
// async methods (not iterators) using `await foreach` with ConfigureAwait(false) and
// WithCancellation, a source with [EnumeratorCancellation] that logs its disposal, early exit from
// `await foreach` (break and return) disposing the chain, cancellation mid-stream, and a
// pattern-based struct async enumerator consumed by `await foreach`.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

static class AsyncSeq
{
    public static bool Suspend;
    public static readonly List<string> Events = new();

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    public static async IAsyncEnumerable<int> Numbers(int count, [EnumeratorCancellation] CancellationToken token = default)
    {
        try
        {
            for (int i = 1; i <= count; i++)
            {
                token.ThrowIfCancellationRequested();
                if (Suspend && i % 2 == 0) await Task.Delay(1, token);
                yield return i;
            }
        }
        finally { Events.Add($"numbers({count}) disposed"); }
    }

    public static async IAsyncEnumerable<T> Where<T>(this IAsyncEnumerable<T> source, Func<T, ValueTask<bool>> predicate)
    {
        await foreach (var item in source.ConfigureAwait(false))
            if (await predicate(item).ConfigureAwait(false))
                yield return item;
    }

    public static async IAsyncEnumerable<TR> Select<T, TR>(this IAsyncEnumerable<T> source, Func<T, Task<TR>> selector)
    {
        await foreach (var item in source)
            yield return await selector(item);
    }

    public static async IAsyncEnumerable<T> Take<T>(this IAsyncEnumerable<T> source, int count)
    {
        if (count <= 0) yield break;
        await foreach (var item in source)
        {
            yield return item;
            if (--count == 0) yield break;
        }
    }

    public static async IAsyncEnumerable<T[]> Chunk<T>(this IAsyncEnumerable<T> source, int size)
    {
        var buffer = new List<T>(size);
        await foreach (var item in source)
        {
            buffer.Add(item);
            if (buffer.Count == size) { yield return buffer.ToArray(); buffer.Clear(); }
        }
        if (buffer.Count > 0) yield return buffer.ToArray();
    }

    public static async IAsyncEnumerable<TR> SelectMany<T, TR>(this IAsyncEnumerable<T> source, Func<T, IAsyncEnumerable<TR>> selector)
    {
        await foreach (var outer in source)
            await foreach (var inner in selector(outer))
                yield return inner;
    }

    public static async Task<List<T>> ToListAsync<T>(this IAsyncEnumerable<T> source, CancellationToken token = default)
    {
        var list = new List<T>();
        await foreach (var item in source.WithCancellation(token).ConfigureAwait(false))
            list.Add(item);
        return list;
    }

    public static async ValueTask<long> SumAsync(this IAsyncEnumerable<int> source)
    {
        long sum = 0;
        await foreach (var item in source) sum = checked(sum + item);
        return sum;
    }

    public static async Task<T?> FirstOrDefaultAsync<T>(this IAsyncEnumerable<T> source, Func<T, bool> predicate)
    {
        await foreach (var item in source)
            if (predicate(item)) return item;
        return default;
    }
}

readonly struct Countdown
{
    private readonly int[] remaining;
    public Countdown(int from) => remaining = [from + 1];
    public Countdown GetAsyncEnumerator() => this;
    public int Current => remaining[0];
    public async ValueTask<bool> MoveNextAsync()
    {
        await AsyncSeq.Pause();
        return --remaining[0] > 0;
    }
}

static class Program
{
    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            AsyncSeq.Suspend = suspend;
            AsyncSeq.Events.Clear();
            Console.WriteLine($"-- suspend={suspend}");

            var evens = await AsyncSeq.Numbers(10)
                .Where(async n => { await AsyncSeq.Pause(); return n % 2 == 0; })
                .Select(async n => { await AsyncSeq.Pause(); return $"<{n * n}>"; })
                .ToListAsync();
            Console.WriteLine("evens squared: " + string.Join("", evens));

            Console.WriteLine($"sum of first 4: {await AsyncSeq.Numbers(1000).Take(4).SumAsync()}");
            Console.WriteLine($"first > 6: {await AsyncSeq.Numbers(100).FirstOrDefaultAsync(n => n > 6)}");
            Console.WriteLine($"first > 60 of 5: {await AsyncSeq.Numbers(5).FirstOrDefaultAsync(n => n > 60)}");

            await foreach (var chunk in AsyncSeq.Numbers(7).Chunk(3))
                Console.WriteLine($"chunk [{string.Join(",", chunk)}]");

            var pairs = await AsyncSeq.Numbers(3).SelectMany(n => AsyncSeq.Numbers(n).Select(async m => { await AsyncSeq.Pause(); return (n, m); })).ToListAsync();
            Console.WriteLine("pairs " + string.Join(" ", pairs));

            int seen = 0;
            await foreach (var n in AsyncSeq.Numbers(50).Where(n => new ValueTask<bool>(n % 3 == 0)))
            {
                seen += n;
                if (n >= 12) break;
            }
            Console.WriteLine($"break after 12: {seen}");

            using var cts = new CancellationTokenSource();
            var collected = new List<int>();
            try
            {
                await foreach (var n in AsyncSeq.Numbers(100).WithCancellation(cts.Token))
                {
                    collected.Add(n);
                    if (n == 5) cts.Cancel();
                }
            }
            catch (OperationCanceledException e)
            {
                Console.WriteLine($"canceled after [{string.Join(",", collected)}] ({e.GetType().Name})");
            }

            var countdown = new List<int>();
            await foreach (var n in new Countdown(4)) countdown.Add(n);
            Console.WriteLine("countdown " + string.Join(" ", countdown));
            Console.WriteLine("events: " + string.Join("; ", AsyncSeq.Events));
        }
    }
}
