// C# 13 lets async methods use ref locals and ref struct locals (Span<T>, ReadOnlySpan<T>) as long
// as none lives across an await: ref locals into arrays and fields updated between awaits, spans
// over arrays and strings used between awaits, a ref local re-targeted after an await, lock
// statements between awaits, and foreach over a span.
using System;
using System.Threading;
using System.Threading.Tasks;

sealed class Grid
{
    public int[] Cells = new int[6];
    public int Total;
    private readonly Lock _gate = new();

    public async Task<string> Fill(int rounds)
    {
        for (int round = 0; round < rounds; round++)
        {
            ref int cell = ref Cells[round % Cells.Length];
            cell += round + 1;
            ref int total = ref Total;
            total += cell;
            await Program.Pause();
            Span<int> window = Cells.AsSpan(0, 3);
            window[round % 3]++;
            int sum = 0;
            foreach (var c in window)
                sum += c;
            lock (_gate)
            {
                Total += sum;
            }
            await Program.Pause();
        }
        return $"{string.Join(",", Cells)} total={Total}";
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<int> CountVowels(string text)
    {
        int count = 0;
        for (int start = 0; start < text.Length; start += 4)
        {
            ReadOnlySpan<char> chunk = text.AsSpan(start, Math.Min(4, text.Length - start));
            foreach (var ch in chunk)
                if ("aeiou".Contains(ch))
                    count++;
            await Pause();
        }
        return count;
    }

    static async Task<string> Retarget(int[] a, int[] b)
    {
        ref int r = ref a[0];
        r = 100;
        await Pause();
        r = ref b[1];   // a new target after the await; the old one is dead
        r += 5;
        await Pause();
        return $"{a[0]} {b[1]}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await new Grid().Fill(5));
            Console.WriteLine(await CountVowels("the quick brown fox jumps over the lazy dog"));
            Console.WriteLine(await Retarget(new[] { 1, 2 }, new[] { 3, 4 }));
        }
    }
}
