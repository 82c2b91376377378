// Async methods whose frames keep differently shaped values across an await: a result of each
// size beside references and small integers, so that each level of the frame's class hierarchy
// (Continuation, Continuation<T>, the method's own) ends with a different amount of padding.
// `async2 inspect` estimates each frame's size from the same shapes (InspectTests).
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

struct Pair
{
    public long A;
    public int B;
}

static class Program
{
    static async Task<int> IntKeepingATask(Task<int> input) => 1 + await input;

    static async Task<long> LongKeepingReferencesAndAnInt(string text, Task<long> input)
    {
        int length = text.Length;
        long value = await input;
        return value + length + text[0];
    }

    static async Task<byte> ByteKeepingShorts(short a, short b, Task<byte> input)
    {
        byte value = await input;
        return (byte)(value + a + b);
    }

    static async Task<Pair> PairKeepingAPair(Pair pair, Task<int> input)
    {
        int value = await input;
        return new Pair { A = pair.A + value, B = pair.B };
    }

    static async Task NothingKeepingADouble(double scale, Task<int> input)
    {
        int value = await input;
        Console.WriteLine($"scaled: {value * scale}");
    }

    static async Task NothingKeepingAnInt(int extra, Task<int> input) => Console.WriteLine(await input + extra);

    static async Task NothingKeepingABoolAndAString(bool flag, string text, Task<int> input)
    {
        int value = await input;
        Console.WriteLine(flag ? text + value : "-");
    }

    static async Task NothingKeepingAToken(CancellationToken token, int extra, Task<int> input)
    {
        int value = await input;
        Console.WriteLine(token.IsCancellationRequested ? extra : value);
    }

    static async Task<int> IntKeepingAValueTask(ValueTask<int> pending, Task<int> input) => await input + await pending;

    static async Task<int> IntKeepingATupleOfBytes((byte, byte) pair, int extra, Task<int> input) => await input + pair.Item1 + pair.Item2 + extra;

    static async Task<short> ShortKeepingADecimalAndAGuid(decimal amount, Guid id, Task<int> input) =>
        (short)(await input + (int)amount + (id == Guid.Empty ? 1 : 2));

    static async Task<int> IntKeepingAKeyValuePair(KeyValuePair<string, byte> pair, Task<int> input) => await input + pair.Value + pair.Key.Length;

    static async Task Main()
    {
        await NothingKeepingAnInt(1, Later(2));
        await NothingKeepingABoolAndAString(true, "text ", Later(3));
        await NothingKeepingAToken(default, 4, Later(5));
        Console.WriteLine(await IntKeepingAValueTask(new ValueTask<int>(6), Later(7)));
        Console.WriteLine(await IntKeepingATupleOfBytes((8, 9), 10, Later(11)));
        Console.WriteLine(await ShortKeepingADecimalAndAGuid(12.5m, Guid.Empty, Later(13)));
        Console.WriteLine(await IntKeepingAKeyValuePair(new("key", 14), Later(15)));
        Console.WriteLine(await IntKeepingATask(Later(41)));
        Console.WriteLine(await LongKeepingReferencesAndAnInt("async", Later(100L)));
        Console.WriteLine(await ByteKeepingShorts(2, 3, Later((byte)4)));
        var pair = await PairKeepingAPair(new Pair { A = 5, B = 6 }, Later(7));
        Console.WriteLine($"{pair.A} {pair.B}");
        await NothingKeepingADouble(1.5, Later(8));
    }

    static async Task<T> Later<T>(T value)
    {
        await Task.Yield();
        return value;
    }
}
