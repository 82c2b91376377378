// Ref structs and ref locals given their values after an await in every way C# allows, then used:
// out arguments (also in a loop, discarded, deconstructed, a BCL reader's TryReadTo), constructors
// whose arguments branch (??, ?:), a streaming Utf8JsonReader loop, a ref struct filled in field
// by field, a span assigned inside a foreach over a List (a try/finally) and used after it, a ref
// local reassigned inside try/finally. Classic C# compiles all of it; the rewrite must refuse none
// of it (ASYNC2102 is for values kept across an await) and print what classic prints.
using System;
using System.Buffers;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Text.Json;
using System.Threading.Tasks;

ref struct Pair
{
    public int A;
    public int B;
}

static class Program
{
    static bool Suspend;
    static int s_counter;

    static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static bool TryGet(int[] a, out Span<int> s) { s = a.AsSpan(1); return a.Length > 1; }
    static void Deconstruct(this int[] a, out Span<int> x, out Span<int> y) { x = a.AsSpan(0, 1); y = a.AsSpan(1); }

    static async Task<int> OutArgument(int[] numbers)
    {
        await Pause();
        return TryGet(numbers, out var s) ? s[0] : -1;
    }

    static async Task<int> OutArgumentInLoop(int[] numbers)
    {
        int sum = 0;
        for (int i = 0; i < 3; i++)
        {
            if (TryGet(numbers, out var s))
                sum += s[0] + i;
            await Pause();
        }
        return sum;
    }

    static async Task<bool> Discarded(int[] numbers)
    {
        await Pause();
        return TryGet(numbers, out _);
    }

    static async Task<int> Deconstructed(int[] numbers)
    {
        await Pause();
        var (x, y) = numbers;
        return x.Length * 10 + y.Length;
    }

    static async Task<int> ConstructorWithBranches(byte[]? data, bool flag)
    {
        await Pause();
        var span = new ReadOnlySpan<byte>(data ?? Array.Empty<byte>());
        var other = new ReadOnlySpan<byte>(flag ? data : new byte[7]);
        return span.Length * 10 + other.Length;
    }

    static async Task<int> Lines(string text)
    {
        var stream = new MemoryStream(Encoding.UTF8.GetBytes(text));
        var buffer = new byte[256];
        int n = await stream.ReadAsync(buffer);
        var reader = new SequenceReader<byte>(new ReadOnlySequence<byte>(buffer, 0, n));
        int lines = 0;
        while (reader.TryReadTo(out ReadOnlySpan<byte> line, (byte)'\n'))
            if (!line.IsEmpty)
                lines++;
        return lines;
    }

    static async Task<int> JsonTokens(string json)
    {
        var stream = new MemoryStream(Encoding.UTF8.GetBytes(json));
        var buffer = new byte[8];
        var state = new JsonReaderState();
        int tokens = 0;
        var pending = new List<byte>();
        bool end = false;
        while (!end)
        {
            int n = await stream.ReadAsync(buffer);
            end = n == 0;
            pending.AddRange(buffer.AsSpan(0, n).ToArray());
            var data = pending.ToArray();
            var reader = new Utf8JsonReader(data, isFinalBlock: end, state);
            while (reader.Read())
                tokens++;
            state = reader.CurrentState;
            pending.RemoveRange(0, (int)reader.BytesConsumed);
        }
        return tokens;
    }

    static async Task<int> FieldByField()
    {
        await Pause();
        Pair p;
        p.A = 1;
        p.B = 2;
        return p.A + p.B;
    }

    static async Task<int> LastOfList(List<string> items)
    {
        ReadOnlySpan<char> last = default;
        foreach (var item in items)
        {
            await Pause();
            last = item;
        }
        return last.Length;
    }

    static async Task<int> RefLocalReassignedInTry(int[] numbers)
    {
        ref int r = ref numbers[0];
        r = 5;
        try
        {
            await Pause();
            r = ref numbers[1];
        }
        finally
        {
            s_counter++;
        }
        r++;
        return numbers[0] * 100 + numbers[1];
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine($"  out: {await OutArgument([1, 2, 3])} {await OutArgumentInLoop([1, 2, 3])} {await Discarded([1, 2])} {await Deconstructed([1, 2, 3])}");
            Console.WriteLine($"  constructors: {await ConstructorWithBranches(new byte[3], true)} {await ConstructorWithBranches(null, false)}");
            Console.WriteLine($"  readers: {await Lines("a\nbb\n\nccc\n")} {await JsonTokens("{\"a\":[1,2,3],\"b\":true,\"c\":\"text\"}")}");
            Console.WriteLine($"  fields, finally, ref: {await FieldByField()} {await LastOfList(["a", "bcd"])} {await RefLocalReassignedInTry([1, 2])} {s_counter}");
        }
    }
}
