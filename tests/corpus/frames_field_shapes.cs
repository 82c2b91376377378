// Async methods whose frames keep differently shaped values across an await: a result of each
// size beside references and small integers, so that each level of the frame's class hierarchy
// (Continuation, Continuation<T>, the method's own) ends with a different amount of padding.
// `async2 inspect` estimates each frame's size from the same shapes (InspectTests).
using System;
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

    static async Task Main()
    {
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
