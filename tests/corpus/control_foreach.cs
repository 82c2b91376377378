// foreach over arrays, List<T> (struct enumerator), strings, dictionaries and a class enumerator
// with Dispose, with awaits in the body; break out of foreach disposes the enumerator.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Threading.Tasks;

sealed class LoggingSequence : IEnumerable<int>
{
    private readonly int count;
    public LoggingSequence(int count) => this.count = count;
    public IEnumerator<int> GetEnumerator() => new Enumerator(count);
    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    private sealed class Enumerator : IEnumerator<int>
    {
        private readonly int count;
        private int index = -1;
        public Enumerator(int count) => this.count = count;
        public int Current => index * 10;
        object IEnumerator.Current => Current;
        public bool MoveNext() => ++index < count;
        public void Reset() => index = -1;
        public void Dispose() => Console.WriteLine($"  enumerator disposed at index {index}");
    }
}

static class Program
{
    static bool Suspend;

    static async Task<int> Twice(int v)
    {
        if (Suspend) await Task.Yield();
        return v * 2;
    }

    static async Task<string> Upper(char c)
    {
        if (Suspend) await Task.Yield();
        return char.ToUpperInvariant(c).ToString();
    }

    static async Task<int> OverArray(int[] items)
    {
        int sum = 0;
        foreach (var item in items)
            sum += await Twice(item);
        return sum;
    }

    static async Task<string> OverList(List<int> items)
    {
        var parts = new List<string>();
        foreach (var item in items)
        {
            if (item < 0) continue;
            parts.Add((await Twice(item)).ToString());
        }
        return string.Join("|", parts);
    }

    static async Task<string> OverString(string text)
    {
        var result = "";
        foreach (char c in text)
            result += await Upper(c);
        return result;
    }

    static async Task<string> OverDictionary()
    {
        var map = new SortedDictionary<string, int> { ["b"] = 2, ["a"] = 1, ["c"] = 3 };
        var result = "";
        foreach (var (key, value) in map)
            result += $"{key}={await Twice(value)} ";
        return result.TrimEnd();
    }

    static async Task<int> OverSequenceWithBreak()
    {
        int last = -1;
        foreach (var item in new LoggingSequence(10))
        {
            last = await Twice(item);
            if (last >= 60) break;
        }
        return last;
    }

    static async Task<int> NestedForeach()
    {
        int total = 0;
        foreach (var row in new[] { new[] { 1, 2 }, new[] { 3 }, Array.Empty<int>(), new[] { 4, 5, 6 } })
            foreach (var cell in row)
                total = total * 2 + await Twice(cell);
        return total;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine($"OverArray = {await OverArray(new[] { 1, 2, 3, 4 })}");
            Console.WriteLine($"OverList = {await OverList(new List<int> { 5, -1, 7 })}");
            Console.WriteLine($"OverString = {await OverString("async2")}");
            Console.WriteLine($"OverDictionary = {await OverDictionary()}");
            Console.WriteLine($"OverSequenceWithBreak = {await OverSequenceWithBreak()}");
            Console.WriteLine($"NestedForeach = {await NestedForeach()}");
        }
    }
}
