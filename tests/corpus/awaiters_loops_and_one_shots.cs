// The awaiters of ValueTask and ConfigureAwait in the two shapes a chain's root treats apart: a
// top-level call that suspends on one once or a few times, at different awaits, and a loop that
// suspends again and again at the same await (a channel or socket reader), whose awaiter box the
// root refills. Sources complete inline, from other threads racing the registration, and with
// errors; results of different types alternate in one loop; a loop sits under a caller frame, under
// a SynchronizationContext it must come back to, and with AsyncLocal values that change per turn.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

sealed class Source<T> : IValueTaskSource<T>
{
    private ManualResetValueTaskSourceCore<T> core;

    /// <summary>A ValueTask completed with <paramref name="value"/> now, or from a pool thread racing the await.</summary>
    public ValueTask<T> Next(T value, bool fromAnotherThread, bool fail = false)
    {
        core.Reset();
        var token = core.Version;
        if (fromAnotherThread)
            ThreadPool.UnsafeQueueUserWorkItem(_ => Complete(value, fail), null);
        else
            Complete(value, fail);
        return new ValueTask<T>(this, token);
    }

    private void Complete(T value, bool fail)
    {
        if (fail) core.SetException(new InvalidOperationException($"source failed at {value}"));
        else core.SetResult(value);
    }

    public T GetResult(short token) => core.GetResult(token);
    public ValueTaskSourceStatus GetStatus(short token) => core.GetStatus(token);
    public void OnCompleted(Action<object?> c, object? s, short t, ValueTaskSourceOnCompletedFlags f) => core.OnCompleted(c, s, t, f);
}

static class Program
{
    static readonly AsyncLocal<int> turn = new();

    static Task<T> Later<T>(T value) => Task.Run(async () => { await Task.Yield(); return value; });

    // One-shot calls: each suspends once, or at two or three different awaits.
    static async Task<int> OnceOnSource(Source<int> s, int v) => await s.Next(v, fromAnotherThread: true) + 1;
    static async Task<string> OnceConfigured(string v) => await Later(v).ConfigureAwait(false) + "!";
    static async Task<int> ThreeDifferentAwaits(Source<int> s, int v)
    {
        int a = await s.Next(v, true).ConfigureAwait(false);
        string b = await Later(a.ToString()).ConfigureAwait(false);
        long c = await new ValueTask<long>(Later(long.Parse(b) * 2));
        return (int)c + a;
    }
    static async ValueTask<List<int>> OnceToValueTask(List<int> list) { (await Later(list).ConfigureAwait(false)).Add(list.Count); return list; }

    // Loops: the same await suspends each turn.
    static async Task<long> SumOfSource(Source<int> s, int n, bool fromAnotherThread)
    {
        long sum = 0;
        for (int i = 0; i < n; i++)
            sum += await s.Next(i, fromAnotherThread && i % 3 != 0);
        return sum;
    }

    static async Task<string> AlternatingTypes(Source<int> ints, Source<string> strings, int n)
    {
        int total = 0;
        string text = "";
        for (int i = 0; i < n; i++)
        {
            total += await ints.Next(i, true);
            text += await strings.Next(((char)('a' + i % 26)).ToString(), i % 2 == 0);
            total += await Later(i).ConfigureAwait(false);
        }
        return $"{total} {text.Length} {text[..10]}";
    }

    static async Task<string> FailsMidLoop(Source<int> s)
    {
        int last = -1;
        try
        {
            for (int i = 0; i < 50; i++)
                last = await s.Next(i, true, fail: i == 37).ConfigureAwait(false);
            return "no failure";
        }
        catch (InvalidOperationException e)
        {
            return $"{e.Message} after {last}";
        }
    }

    static async Task<int> InnerLoop(Source<int> s, int n)
    {
        int sum = 0;
        for (int i = 0; i < n; i++)
            sum += await s.Next(i, true);
        return sum;
    }

    static async Task<int> OuterOfLoop(Source<int> s) => await InnerLoop(s, 40) * 2 + await InnerLoop(s, 10);

    static async Task<int> ChannelReader(ChannelReader<int> reader)
    {
        int sum = 0;
        while (await reader.WaitToReadAsync())
            while (reader.TryRead(out int item))
                sum += item;
        return sum;
    }

    static async Task<int> ChannelReadAsync(ChannelReader<int> reader, int n)
    {
        int sum = 0;
        for (int i = 0; i < n; i++)
            sum += await reader.ReadAsync();
        return sum;
    }

    static async Task<string> LoopOnContext(Source<int> s, SingleThreadLoop loop)
    {
        int onLoop = 0, sum = 0;
        for (int i = 0; i < 30; i++)
        {
            sum += await s.Next(i, true);
            if (loop.IsCurrent) onLoop++;
        }
        for (int i = 0; i < 30; i++)
            sum += await s.Next(i, true).ConfigureAwait(false);
        return $"sum {sum}, {onLoop} of 30 turns back on the loop";
    }

    static async Task<string> LoopWithAsyncLocal(Source<int> s)
    {
        int seen = 0;
        for (int i = 0; i < 40; i++)
        {
            turn.Value = i;
            await s.Next(i, true).ConfigureAwait(false);
            if (turn.Value == i) seen++;
        }
        return $"{seen} of 40 turns kept their AsyncLocal value";
    }

    static async Task Main()
    {
        var ints = new Source<int>();
        var strings = new Source<string>();

        Console.WriteLine($"once on a source: {await OnceOnSource(ints, 41)}");
        Console.WriteLine($"once configured: {await OnceConfigured("x")}");
        Console.WriteLine($"three different awaits: {await ThreeDifferentAwaits(ints, 5)}");
        Console.WriteLine($"to a ValueTask: {string.Join(",", await OnceToValueTask(new List<int> { 7, 8 }))}");

        var many = new List<Task<int>>();
        var sources = new List<Source<int>>();
        for (int i = 0; i < 200; i++)
        {
            var s = new Source<int>();
            sources.Add(s);
            many.Add(OnceOnSource(s, i));
        }
        int total = 0;
        foreach (var t in many) total += await t;
        Console.WriteLine($"200 one-shot calls: {total}");

        Console.WriteLine($"loop, inline: {await SumOfSource(ints, 1000, fromAnotherThread: false)}");
        Console.WriteLine($"loop, racing threads: {await SumOfSource(ints, 1000, fromAnotherThread: true)}");
        Console.WriteLine($"alternating types: {await AlternatingTypes(ints, strings, 60)}");
        Console.WriteLine($"fails mid-loop: {await FailsMidLoop(ints)}");
        Console.WriteLine($"loop under a caller: {await OuterOfLoop(ints)}");

        var channel = Channel.CreateUnbounded<int>(new UnboundedChannelOptions { SingleReader = true });
        var reading = ChannelReader(channel.Reader);
        var bounded = Channel.CreateBounded<int>(1);
        var readingBounded = ChannelReadAsync(bounded.Reader, 500);
        await Task.Run(async () =>
        {
            for (int i = 0; i < 500; i++)
            {
                await channel.Writer.WriteAsync(i);
                await bounded.Writer.WriteAsync(i);
                if (i % 50 == 0) await Task.Yield();
            }
            channel.Writer.Complete();
        });
        Console.WriteLine($"channel, WaitToReadAsync: {await reading}; bounded, ReadAsync: {await readingBounded}");

        // A SingleThreadLoop starts a thread, which a browser page cannot.
        if (!OperatingSystem.IsBrowser())
        {
            var loop = new SingleThreadLoop();
            string onContext = "";
            loop.RunUntilComplete(async () => onContext = await LoopOnContext(new Source<int>(), loop));
            loop.Stop();
            Console.WriteLine($"on a context: {onContext}");
        }
        Console.WriteLine($"AsyncLocal: {await LoopWithAsyncLocal(ints)}");
    }
}
