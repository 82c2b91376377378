// A producer and consumers over System.Threading.Channels, all rewritten methods: a bounded channel
// whose writer waits for room (WriteAsync suspends), consumers reading with await foreach over
// ReadAllAsync, completion with and without an exception (the consumer sees ChannelClosedException's
// inner exception), and a reader canceled through its token while waiting for an item.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task Produce(ChannelWriter<int> writer, int count, Exception? failWith)
    {
        for (int i = 1; i <= count; i++)
        {
            if (Suspend) await Task.Yield();
            await writer.WriteAsync(i);
        }
        writer.Complete(failWith);
    }

    static async Task<int> Consume(ChannelReader<int> reader)
    {
        int sum = 0;
        await foreach (var item in reader.ReadAllAsync())
        {
            if (Suspend) await Task.Delay(1);
            sum += item;
        }
        return sum;
    }

    static async Task<string> Run(int capacity, Exception? failWith)
    {
        var channel = Channel.CreateBounded<int>(capacity);
        var consumer = Consume(channel.Reader);
        await Produce(channel.Writer, 20, failWith);
        try
        {
            return "sum " + await consumer;
        }
        catch (Exception e)
        {
            return $"consumer threw {e.GetType().Name}: {e.Message}";
        }
    }

    static async Task<string> CanceledRead()
    {
        var channel = Channel.CreateUnbounded<int>();
        var source = new CancellationTokenSource();
        var read = channel.Reader.ReadAsync(source.Token).AsTask();
        if (Suspend) await Task.Yield();
        source.Cancel();
        try
        {
            await read;
            return "read completed";
        }
        catch (OperationCanceledException e)
        {
            return "read canceled: " + e.GetType().Name + ", task " + read.Status;
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Run(1, null));
            Console.WriteLine(await Run(4, null));
            Console.WriteLine(await Run(2, new InvalidOperationException("producer failed")));
            Console.WriteLine(await CanceledRead());
        }
    }
}
