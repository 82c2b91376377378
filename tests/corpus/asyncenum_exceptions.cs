// Async iterators and their consumers in rewritten methods: an iterator that throws after yielding
// (the consumer's catch sees it, the iterator's finally ran first), a consumer that throws inside the
// loop body (DisposeAsync runs the iterator's finally, which itself awaits), an early return from the
// loop, nested await foreach, a hand-written IAsyncEnumerator whose MoveNextAsync is a rewritten
// method, and manual enumeration with MoveNextAsync/DisposeAsync.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class Countdown : IAsyncEnumerable<int>
{
    private readonly int from;
    public Countdown(int from) { this.from = from; }

    public IAsyncEnumerator<int> GetAsyncEnumerator(CancellationToken token = default) => new Enumerator(from);

    private sealed class Enumerator : IAsyncEnumerator<int>
    {
        private int next;
        public Enumerator(int from) { next = from + 1; }
        public int Current { get; private set; }

        public async ValueTask<bool> MoveNextAsync()
        {
            if (Program.Suspend) await Task.Yield();
            Current = --next;
            return next > 0;
        }

        public async ValueTask DisposeAsync()
        {
            if (Program.Suspend) await Task.Yield();
            Program.Log("countdown disposed at " + next);
        }
    }
}

static class Program
{
    public static bool Suspend;
    static readonly List<string> log = new();

    public static void Log(string s) => log.Add(s);

    static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async IAsyncEnumerable<int> ThrowsAfter(int count)
    {
        try
        {
            for (int i = 0; i < count; i++)
            {
                await Pause();
                yield return i;
            }
            throw new InvalidOperationException("iterator failed after " + count);
        }
        finally
        {
            await Pause();
            Log("iterator finally");
        }
    }

    static async Task<int> SumUntilThrow()
    {
        int sum = 0;
        try
        {
            await foreach (var i in ThrowsAfter(3))
                sum += i;
        }
        catch (InvalidOperationException e)
        {
            Log("consumer caught " + e.Message + " with sum " + sum);
        }
        return sum;
    }

    static async Task ConsumerThrows()
    {
        try
        {
            await foreach (var i in ThrowsAfter(5))
            {
                await Pause();
                if (i == 1) throw new ArgumentException("body failed at " + i);
            }
        }
        catch (ArgumentException e)
        {
            Log("caught " + e.Message);
        }
    }

    static async Task<int> EarlyReturn()
    {
        await foreach (var i in ThrowsAfter(5))
            if (i == 2) return i;
        return -1;
    }

    static async Task<string> Nested()
    {
        var parts = new List<string>();
        await foreach (var outer in new Countdown(2))
            await foreach (var inner in new Countdown(outer))
                parts.Add(outer + "." + inner);
        return string.Join(" ", parts);
    }

    static async Task<string> Manual()
    {
        var enumerator = new Countdown(3).GetAsyncEnumerator();
        string s = "";
        while (await enumerator.MoveNextAsync())
            s += enumerator.Current;
        await enumerator.DisposeAsync();
        return s;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            log.Clear();
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine("sum " + await SumUntilThrow());
            await ConsumerThrows();
            Console.WriteLine("early return " + await EarlyReturn());
            Console.WriteLine("nested " + await Nested());
            Console.WriteLine("manual " + await Manual());
            foreach (var entry in log) Console.WriteLine("  " + entry);
        }
    }
}
