// Fixture: a frame resumed and suspended again keeps some values and changes others, inspected and
// run by FrameReuseTests. Each loop re-suspends the same frame with a reference that stays (the
// argument), one that changes every time, a struct holding a reference and a generic value.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

public static class Program
{
    public static async Task<string> Accumulate<T>(string prefix, T tag, int rounds)
    {
        string text = prefix;
        var pair = new KeyValuePair<string, int>("start", 0);
        T last = tag;
        for (int i = 0; i < rounds; i++)
        {
            await Task.Yield();
            text = text + i;
            pair = new KeyValuePair<string, int>(pair.Key + "+", pair.Value + i);
            last = i % 2 == 0 ? tag : default!;
        }
        return $"{prefix} {text} {pair.Key}:{pair.Value} {last}";
    }

    public static async Task<int> SwapObjects(int rounds)
    {
        object current = new List<int>();
        int count = 0;
        for (int i = 0; i < rounds; i++)
        {
            await Task.Yield();
            if (current is List<int> list)
            {
                list.Add(i);
                count += list.Count;
                current = i % 3 == 0 ? "a string" : list;
            }
            else
                current = new List<int> { i };
        }
        return count;
    }

    public static async Task Main()
    {
        Console.WriteLine(await Accumulate("p", 7, 5));
        Console.WriteLine(await Accumulate<string?>("q", "tag", 4));
        Console.WriteLine(await SwapObjects(12));
    }
}
