// Fixture: a frame resumed and suspended again keeps some values and changes others, inspected and
// run by FrameReuseTests. Each loop re-suspends the same frame with a reference that stays (the
// argument), one that changes every time, a struct holding a reference and a generic value.
// TwoPhases keeps different variables of the same types at its two awaits, which share fields.
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

    public static async Task<int> TwoPhases(int n)
    {
        string first = "a" + n;
        await Task.Yield();
        int firstLength = first.Length;
        string second = "bb" + n;
        await Task.Yield();
        return firstLength * 100 + second.Length;
    }

    public static async Task Main()
    {
        Console.WriteLine(await TwoPhases(12345));
        Console.WriteLine(await Accumulate("p", 7, 5));
        Console.WriteLine(await Accumulate<string?>("q", "tag", 4));
        Console.WriteLine(await SwapObjects(12));
    }
}
