// Ref structs used between awaits, as C# allows in async methods: a span made anew after every
// await through its constructor, a stackalloc span, a span over a string after the awaited value
// is in a local. The rewrite must keep none of them across an await and refuse none of them.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> Value(int value)
    {
        if (Suspend) await Task.Yield();
        return value;
    }

    static async Task<int> Sum(int[] numbers)
    {
        int sum = 0;
        for (int round = 0; round < 3; round++)
        {
            var span = new Span<int>(numbers, 1, numbers.Length - 1);
            foreach (var n in span)
                sum += n;
            span[0] += round;
            sum += await Value(round);
            Span<int> scratch = stackalloc int[2];
            scratch[0] = sum;
            scratch[1] = numbers[0];
            sum = scratch[0] + scratch[1] + await Value(1);
        }
        int awaited = await Value(2);
        return sum + "hello".AsSpan().IndexOf((char)('j' + awaited));
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            var numbers = new[] { 5, 1, 2, 3 };
            Console.WriteLine($"suspend={suspend}: {await Sum(numbers)} [{string.Join(",", numbers)}]");
        }
    }
}
