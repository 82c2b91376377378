// A System.IO.Pipelines line protocol. A producer writes commands into a Pipe in odd-sized
// chunks (GetMemory/Advance/FlushAsync, so lines straddle segments), a consumer reads with
// ReadAsync and parses complete lines with a SequenceReader<byte> (a ref struct used only between
// awaits), keeps ReadResult/ReadOnlySequence/SequencePosition structs live across awaits, awaits a
// command handler per line inside the parse loop, AdvanceTo(consumed, examined) in a finally, and
// replies through a second Pipe. A Stream copy with `await using` and ConfigureAwait(false)
// copies the replies into a MemoryStream through PipeReader.AsStream.
using System;
using System.Buffers;
using System.Collections.Generic;
using System.IO;
using System.IO.Pipelines;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

readonly record struct Command(string Verb, string[] Args, long Offset);

sealed class ProtocolException(string message, long offset) : Exception($"{message} @{offset}")
{
    public long Offset { get; } = offset;
}

sealed class KvStore
{
    public static bool Suspend;
    private readonly SortedDictionary<string, string> data = new(StringComparer.Ordinal);
    public int Writes;

    public async ValueTask<string> Execute(Command command)
    {
        if (Suspend && command.Offset % 2 == 0) await Task.Yield();
        switch (command.Verb)
        {
            case "SET" when command.Args.Length == 2:
                data[command.Args[0]] = command.Args[1];
                Writes++;
                return "OK";
            case "GET" when command.Args.Length == 1:
                return data.TryGetValue(command.Args[0], out var v) ? "$" + v : "NIL";
            case "DEL":
                int removed = 0;
                foreach (var key in command.Args)
                {
                    if (Suspend) await Task.Yield();
                    if (data.Remove(key)) removed++;
                }
                return ":" + removed;
            case "INCR" when command.Args.Length == 1:
                {
                    long current = data.TryGetValue(command.Args[0], out var s) ? long.Parse(s) : 0;
                    current = checked(current + await Delta(command.Args[0]));
                    data[command.Args[0]] = current.ToString();
                    return ":" + current;
                }
            case "KEYS":
                var sb = new StringBuilder("*");
                foreach (var (k, val) in data)
                {
                    sb.Append(k).Append('=').Append(val).Append(';');
                    if (Suspend && sb.Length % 3 == 0) await Task.Yield();
                }
                return sb.ToString();
            case "BOOM":
                await Task.Yield();
                throw new InvalidOperationException("boom requested");
            default:
                throw new ProtocolException($"bad command {command.Verb}/{command.Args.Length}", command.Offset);
        }
    }

    private static async ValueTask<long> Delta(string key)
    {
        if (Suspend) await Task.Delay(1);
        return key.Length;
    }
}

static class Protocol
{
    public static bool Suspend;

    public static async Task Produce(PipeWriter writer, string script, int chunk)
    {
        var bytes = Encoding.UTF8.GetBytes(script);
        int written = 0;
        try
        {
            while (written < bytes.Length)
            {
                int n = Math.Min(chunk, bytes.Length - written);
                Memory<byte> memory = writer.GetMemory(n);
                bytes.AsSpan(written, n).CopyTo(memory.Span);
                writer.Advance(n);
                written += n;
                if (Suspend && (written / chunk) % 2 == 1) await Task.Yield();
                FlushResult flush = await writer.FlushAsync();
                if (flush.IsCompleted) break;
            }
        }
        finally
        {
            await writer.CompleteAsync();
        }
    }

    static bool TryReadLine(ref SequenceReader<byte> reader, out ReadOnlySequence<byte> line)
    {
        if (reader.TryReadTo(out line, (byte)'\n', advancePastDelimiter: true))
        {
            return true;
        }
        line = default;
        return false;
    }

    static Command ParseLine(ReadOnlySequence<byte> line, long offset)
    {
        string text = line.IsSingleSegment ? Encoding.UTF8.GetString(line.FirstSpan) : Encoding.UTF8.GetString(line.ToArray());
        text = text.TrimEnd('\r');
        var parts = text.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (parts.Length == 0) return new Command("<empty>", [], offset);
        return new Command(parts[0].ToUpperInvariant(), parts[1..], offset);
    }

    public static async Task<(int Lines, int Errors, int Segmented)> Consume(PipeReader reader, PipeWriter replies, KvStore store, List<string> log)
    {
        int lines = 0, errors = 0, segmented = 0;
        long offset = 0;
        try
        {
            while (true)
            {
                ReadResult result = await reader.ReadAsync();
                ReadOnlySequence<byte> buffer = result.Buffer;
                SequencePosition consumed = buffer.Start;
                SequencePosition examined = buffer.End;
                try
                {
                    while (true)
                    {
                        Command command;
                        bool multi;
                        {
                            var sr = new SequenceReader<byte>(buffer.Slice(consumed));
                            if (!TryReadLine(ref sr, out var line)) break;
                            multi = !line.IsSingleSegment;
                            command = ParseLine(line, offset);
                            offset += sr.Consumed;
                            consumed = sr.Position;
                        }
                        lines++;
                        if (multi) segmented++;
                        string reply;
                        try
                        {
                            reply = await store.Execute(command);
                        }
                        catch (ProtocolException e) when (e.Offset >= 0)
                        {
                            errors++;
                            reply = "-ERR " + e.Message;
                        }
                        catch (InvalidOperationException e)
                        {
                            errors++;
                            reply = "-FAIL " + e.Message;
                            if (Suspend) await Task.Yield();
                        }
                        await WriteReply(replies, reply);
                    }
                    if (result.IsCompleted)
                    {
                        if (!buffer.Slice(consumed).IsEmpty)
                        {
                            log.Add($"trailing {buffer.Slice(consumed).Length} bytes");
                            await WriteReply(replies, "-ERR incomplete line");
                            consumed = buffer.End;
                        }
                        break;
                    }
                }
                finally
                {
                    reader.AdvanceTo(consumed, examined);
                }
            }
        }
        finally
        {
            await reader.CompleteAsync();
            await replies.CompleteAsync();
        }
        return (lines, errors, segmented);
    }

    static async ValueTask WriteReply(PipeWriter writer, string reply)
    {
        int max = Encoding.UTF8.GetMaxByteCount(reply.Length + 1);
        var span = writer.GetSpan(max);
        int n = Encoding.UTF8.GetBytes(reply + "\n", span);
        writer.Advance(n);
        if (Suspend) await Task.Yield();
        await writer.FlushAsync();
    }
}

static class Program
{
    const string Script =
        "SET alpha 1\nSET beta two\r\nGET alpha\nGET gamma\nINCR alpha\nINCR counter\nINCR counter\n" +
        "DEL beta nothere\nfrobnicate x y\n\nBOOM\nSET longer-key-name-that-spans-segments value-value-value\n" +
        "KEYS\nGET longer-key-name-that-spans-segments\nSET tail 9";

    static async Task<string> CopyAll(Stream source)
    {
        var target = new MemoryStream();
        await using (source.ConfigureAwait(false))
        {
            var buffer = new byte[7];
            int read, total = 0;
            while ((read = await source.ReadAsync(buffer.AsMemory()).ConfigureAwait(false)) > 0)
            {
                await target.WriteAsync(buffer.AsMemory(0, read)).ConfigureAwait(false);
                total += read;
                if (Protocol.Suspend && total % 2 == 0) await Task.Yield();
            }
        }
        return Encoding.UTF8.GetString(target.ToArray());
    }

    static async Task RunOnce(int chunk, int segment)
    {
        var options = new PipeOptions(minimumSegmentSize: segment, pauseWriterThreshold: 64, resumeWriterThreshold: 32, useSynchronizationContext: false);
        var requests = new Pipe(options);
        var replies = new Pipe(options);
        var store = new KvStore();
        var log = new List<string>();
        Task producer = Protocol.Produce(requests.Writer, Script, chunk);
        Task<(int, int, int)> consumer = Protocol.Consume(requests.Reader, replies.Writer, store, log);
        Task<string> copy = CopyAll(replies.Reader.AsStream());
        await producer;
        var (lines, errors, segmented) = await consumer;
        string text = await copy;
        Console.WriteLine($"chunk={chunk}: lines={lines} errors={errors} writes={store.Writes} {string.Join(",", log)}");
        foreach (var reply in text.Split('\n', StringSplitOptions.RemoveEmptyEntries))
            Console.WriteLine("  " + reply);
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            KvStore.Suspend = Protocol.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var chunk in new[] { 5, 13, 200 })
                await RunOnce(chunk, 16);
            var loop = new SingleThreadLoop("pipes");
            loop.RunUntilComplete(async () =>
            {
                await RunOnce(3, 8);
                Console.WriteLine($"back on loop: {loop.IsCurrent}");
            });
            loop.Stop();
        }
    }
}
