// stackalloc (IL localloc) in async methods: C# 13 allows Span locals in async methods as long as
// none is live across an await, so the memory is never needed after a suspension. Buffers before
// and after awaits, in loops that await every iteration, sized at run time, inside try/finally,
// in generic and recursive methods, in a lambda; each run without and with real suspensions.
using System;
using System.Text;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task Pause()
    {
        if (Suspend)
            await Task.Yield();
    }

    static int Checksum(ReadOnlySpan<byte> bytes)
    {
        int sum = 17;
        foreach (var b in bytes)
            sum = sum * 31 + b;
        return sum;
    }

    static async Task<int> BeforeAndAfter(int seed)
    {
        int first;
        {
            Span<byte> scratch = stackalloc byte[16];
            for (int i = 0; i < scratch.Length; i++)
                scratch[i] = (byte)(seed + i);
            first = Checksum(scratch);
        }
        await Pause();
        Span<byte> again = stackalloc byte[8];
        again.Fill((byte)first);
        return first ^ Checksum(again);
    }

    static async Task<string> EveryIteration(int count)
    {
        var text = new StringBuilder();
        for (int i = 0; i < count; i++)
        {
            Span<char> digits = stackalloc char[11];
            i.TryFormat(digits, out int written);
            text.Append(digits[..written]).Append(',');
            await Pause();
        }
        return text.ToString();
    }

    static async Task<int> SizedAtRunTime(int length)
    {
        await Pause();
        Span<int> values = length <= 64 ? stackalloc int[length] : new int[length];
        for (int i = 0; i < values.Length; i++)
            values[i] = i * i;
        int total = 0;
        foreach (var v in values)
            total += v;
        await Pause();
        return total;
    }

    static async Task<int> InsideTry(int seed)
    {
        int result = 0;
        try
        {
            await Pause();
            Span<short> buffer = stackalloc short[4] { 1, 2, 3, (short)seed };
            foreach (var s in buffer)
                result += s;
            if (seed < 0)
                throw new ArgumentOutOfRangeException(nameof(seed));
        }
        finally
        {
            Console.WriteLine($"  finally: result so far {result}");
        }
        await Pause();
        return result;
    }

    static async Task<T> Generic<T>(T value, int size) where T : unmanaged
    {
        bool filled;
        {
            Span<T> copies = stackalloc T[size];
            copies.Fill(value);
            filled = copies.Length > 0 && copies[^1].Equals(value);
        }
        await Pause();
        return filled ? value : default;
    }

    static async Task<int> Recursive(int depth)
    {
        Span<byte> frame = stackalloc byte[32];
        frame[0] = (byte)depth;
        int mine = frame[0];
        if (depth == 0)
        {
            await Pause();
            return mine;
        }
        return mine + await Recursive(depth - 1);
    }

    static async Task Run(string label)
    {
        Console.WriteLine($"{label}:");
        Console.WriteLine($"  before and after: {await BeforeAndAfter(3)}");
        Console.WriteLine($"  every iteration: {await EveryIteration(12)}");
        Console.WriteLine($"  sized at run time: {await SizedAtRunTime(10)} {await SizedAtRunTime(100)}");
        Console.WriteLine($"  inside try: {await InsideTry(4)}");
        try
        {
            await InsideTry(-1);
        }
        catch (ArgumentOutOfRangeException e)
        {
            Console.WriteLine($"  caught {e.GetType().Name} for {e.ParamName}");
        }
        Console.WriteLine($"  generic: {await Generic(2.5, 3)} {await Generic('x', 5)}");
        Console.WriteLine($"  recursive: {await Recursive(200)}");
        Func<int, Task<int>> lambda = async n =>
        {
            Span<long> squares = stackalloc long[n];
            for (int i = 0; i < n; i++)
                squares[i] = (long)i * i;
            long sum = 0;
            foreach (var s in squares)
                sum += s;
            await Pause();
            return (int)sum;
        };
        Console.WriteLine($"  lambda: {await lambda(20)}");
    }

    static async Task Main()
    {
        await Run("synchronous");
        Suspend = true;
        await Run("suspending");
    }
}
