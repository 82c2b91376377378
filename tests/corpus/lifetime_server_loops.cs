// Memory over long server-like loops, and what a generic method's reused frame keeps between
// iterations: 100k iterations of a loop awaiting a SemaphoreSlim and Task.Yield, a producer and a
// consumer over a bounded Channel, and a generic method of a generic class whose loop awaits
// values of different shapes (a struct holding a reference, an array). Only booleans with a
// generous bound are printed.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;

sealed class Big
{
    public readonly string Name;
    public readonly byte[] Payload = new byte[1000];
    public Big(string name) { Name = name; }
}

struct Envelope<T>
{
    public T Body;
    public int Id;
}

sealed class Repository<TKey> where TKey : notnull
{
    public readonly Dictionary<TKey, WeakReference> Weak = new();

    [MethodImpl(MethodImplOptions.NoInlining)]
    public Big Make(TKey key)
    {
        var big = new Big(key.ToString()!);
        Weak[key] = new WeakReference(big);
        return big;
    }

    public async Task<Envelope<T>> Fetch<T>(TKey key, Func<Big, T> wrap, TaskCompletionSource gate)
    {
        var big = Make(key);
        await gate.Task;
        return new Envelope<T> { Body = wrap(big), Id = big.Name.Length };
    }

    public async Task<int> Process<T>(TKey[] keys, Func<Big, T> wrap, TaskCompletionSource[] gates, TaskCompletionSource last)
    {
        int sum = 0;
        for (int i = 0; i < keys.Length; i++)
        {
            Envelope<T> envelope = await Fetch(keys[i], wrap, gates[i]);
            sum += envelope.Id;
        }
        await last.Task;
        return sum;
    }
}

static class Program
{
    static readonly SemaphoreSlim Lock = new(1);
    static int Counter;

    static async Task Handle(int i)
    {
        await Lock.WaitAsync();
        try
        {
            var buffer = new byte[128];
            buffer[0] = (byte)i;
            await Task.Yield();
            Counter += buffer[0] & 1;
        }
        finally
        {
            Lock.Release();
        }
    }

    static async Task<long> ServerLoop(int iterations)
    {
        for (int i = 0; i < iterations; i++)
            await Handle(i);
        return Counter;
    }

    static async Task Produce(ChannelWriter<byte[]> writer, int count)
    {
        for (int i = 0; i < count; i++)
            await writer.WriteAsync(new byte[64]);
        writer.Complete();
    }

    static async Task<long> Consume(ChannelReader<byte[]> reader)
    {
        long total = 0;
        await foreach (var item in reader.ReadAllAsync())
            total += item.Length;
        return total;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static long Settled()
    {
        for (int i = 0; i < 3; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
        return GC.GetTotalMemory(true);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static bool Alive<TKey>(Repository<TKey> repository, TKey key) where TKey : notnull
    {
        for (int i = 0; i < 3; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
        return repository.Weak[key].IsAlive;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static (Task<int> Task, TaskCompletionSource Last) StartGeneric<TKey, T>(Repository<TKey> repository, TKey[] keys, Func<Big, T> wrap) where TKey : notnull
    {
        var gates = new TaskCompletionSource[keys.Length];
        for (int i = 0; i < gates.Length; i++)
            gates[i] = new TaskCompletionSource();
        var last = new TaskCompletionSource();
        var task = repository.Process(keys, wrap, gates, last);
        foreach (var gate in gates)
            gate.SetResult();
        return (task, last);
    }

    static void Generic<TKey, T>(string what, TKey[] keys, Func<Big, T> wrap) where TKey : notnull
    {
        var repository = new Repository<TKey>();
        var (task, last) = StartGeneric(repository, keys, wrap);
        Console.WriteLine($"{what}: waiting {!task.IsCompleted}, first {Alive(repository, keys[0])}, last {Alive(repository, keys[^1])}");
        last.SetResult();
        Console.WriteLine($"{what}: {task.Result}");
    }

    static async Task Main()
    {
        Generic("struct holding a reference", new[] { 1, 2, 3 }, big => new Envelope<Big> { Body = big });
        Generic("array", new[] { "a", "bb" }, big => new[] { big });
        Generic("string", new[] { 'x', 'y' }, big => big.Name);
        Generic("tuple", new[] { 10L, 20L }, big => (big, big.Payload));

        await ServerLoop(1000);
        long before = Settled();
        long counted = await ServerLoop(100_000);
        long after = Settled();
        Console.WriteLine($"server loop: {counted}, grew past 2 MB: {after - before > 2_000_000}");

        var channel = Channel.CreateBounded<byte[]>(4);
        before = Settled();
        var consumer = Consume(channel.Reader);
        await Produce(channel.Writer, 100_000);
        long total = await consumer;
        after = Settled();
        Console.WriteLine($"channel: {total}, grew past 2 MB: {after - before > 2_000_000}");
    }
}
