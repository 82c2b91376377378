// Fixture: a frame resumed and suspended again keeps some values and changes others, inspected and
// run by FrameReuseTests. Each loop re-suspends the same frame with a reference that stays (the
// argument), one that changes every time, a struct holding a reference and a generic value.
// TwoPhases keeps different variables of the same types at its two awaits, which share fields.
// ManyPoints keeps twelve strings at each of its 64 awaits: past the budget of inline stores, as
// Tally.Rounds is, an instance method of a struct (whose frame keeps a copy of this, not this).
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

    public static async Task<string> ManyPoints(string seed)
    {
        string s0 = seed, s1 = seed + "1", s2 = seed + "2", s3 = seed + "3", s4 = seed + "4", s5 = seed + "5", s6 = seed + "6", s7 = seed + "7", s8 = seed + "8", s9 = seed + "9", s10 = seed + "10", s11 = seed + "11";
        try
        {
            try
            {
                s0 = await Next(s0, s1); s1 = await Next(s1, s2); s2 = await Next(s2, s3); s3 = await Next(s3, s4);
                s4 = await Next(s4, s5); s5 = await Next(s5, s6); s6 = await Next(s6, s7); s7 = await Next(s7, s8);
                s8 = await Next(s8, s9); s9 = await Next(s9, s10); s10 = await Next(s10, s11); s11 = await Next(s11, s0);
                s0 = await Next(s0, s1); s1 = await Next(s1, s2); s2 = await Next(s2, s3); s3 = await Next(s3, s4);
                s4 = await Next(s4, s5); s5 = await Next(s5, s6); s6 = await Next(s6, s7); s7 = await Next(s7, s8);
                s8 = await Next(s8, s9); s9 = await Next(s9, s10); s10 = await Next(s10, s11); s11 = await Next(s11, s0);
                s0 = await Next(s0, s1); s1 = await Next(s1, s2); s2 = await Next(s2, s3); s3 = await Next(s3, s4);
                s4 = await Next(s4, s5); s5 = await Next(s5, s6); s6 = await Next(s6, s7); s7 = await Next(s7, s8);
                s8 = await Next(s8, s9); s9 = await Next(s9, s10); s10 = await Next(s10, s11); s11 = await Next(s11, s0);
                s0 = await Next(s0, s1); s1 = await Next(s1, s2); s2 = await Next(s2, s3); s3 = await Next(s3, s4);
                s4 = await Next(s4, s5); s5 = await Next(s5, s6); s6 = await Next(s6, s7); s7 = await Next(s7, s8);
                s8 = await Next(s8, s9); s9 = await Next(s9, s10); s10 = await Next(s10, s11); s11 = await Next(s11, s0);
                s0 = await Next(s0, s1); s1 = await Next(s1, s2); s2 = await Next(s2, s3); s3 = await Next(s3, s4);
                s4 = await Next(s4, s5); s5 = await Next(s5, s6); s6 = await Next(s6, s7); s7 = await Next(s7, s8);
                s8 = await Next(s8, s9); s9 = await Next(s9, s10); s10 = await Next(s10, s11); s11 = await Next(s11, s0);
                s0 = await Next(s0, s1); s1 = await Next(s1, s2); s2 = await Next(s2, s3); s3 = await Next(s3, s4);
            }
            finally
            {
                s0 += "f";
            }
        }
        finally
        {
            s1 += "g";
        }
        return string.Join(",", s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11);
    }

    internal static async Task<string> Next(string current, string neighbour)
    {
        if (current.Length % 3 == 0)
            await Task.Yield();
        var joined = neighbour + current;
        return joined.Substring(joined.Length / 3, Math.Min(9, joined.Length - joined.Length / 3));
    }

    public static async Task Main()
    {
        var tally = new Tally { Label = "t" };
        Console.WriteLine(await tally.Rounds(4));
        Console.WriteLine(tally.Label);
        Console.WriteLine(await TwoPhases(12345));
        Console.WriteLine(await Accumulate("p", 7, 5));
        Console.WriteLine(await Accumulate<string?>("q", "tag", 4));
        Console.WriteLine(await SwapObjects(12));
        Console.WriteLine(await ManyPoints("seed"));
    }
}

public struct Tally
{
    public string Label;

    public async Task<string> Rounds(int count)
    {
        string a = Label, b = Label + "b", c = Label + "c", d = Label + "d", e = Label + "e", f = Label + "f", g = Label + "g", h = Label + "h";
        for (int i = 0; i < count; i++)
        {
            a = await Program.Next(a, b); b = await Program.Next(b, c); c = await Program.Next(c, d); d = await Program.Next(d, e);
            e = await Program.Next(e, f); f = await Program.Next(f, g); g = await Program.Next(g, h); h = await Program.Next(h, a);
            Label += i;
        }
        return string.Join(",", Label, a, b, c, d, e, f, g, h);
    }
}
