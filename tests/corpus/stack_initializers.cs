// awaits inside object initializers, collection initializers, array initializers (one- and
// two-dimensional), anonymous types, tuples and string interpolation, with other values on the stack.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

sealed class Person
{
    public string Name = "";
    public int Age;
    public List<string> Tags { get; } = new List<string>();
    public Person? Friend { get; set; }
    public override string ToString() => $"{Name}({Age})[{string.Join(",", Tags)}]" + (Friend is null ? "" : "->" + Friend);
}

static class Program
{
    static bool Suspend;

    static async Task<int> I(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<string> S(string v)
    {
        if (Suspend) await Task.Delay(1);
        return v;
    }

    static async Task<Person> Objects()
    {
        return new Person
        {
            Name = await S("Ann"),
            Age = 30 + await I(2),
            Tags = { "x", await S("y"), "z" },
            Friend = new Person { Name = "Bob", Age = await I(40), Tags = { await S("friend") } },
        };
    }

    static async Task<string> Arrays()
    {
        var a = new[] { 1, await I(2), 3, await I(4) };
        var b = new string[] { await S("p"), "q", await S("r") };
        var c = new long[2, 2] { { 1, await I(2) }, { await I(3), 4 } };
        var d = new object[] { 1, "two", await I(3), await S("four"), 5.0 };
        return $"{string.Join(",", a)} {string.Join(",", b)} {c[0, 1]}{c[1, 0]}{c[1, 1]} {string.Join(",", d)}";
    }

    static async Task<string> Collections()
    {
        var list = new List<int> { await I(1), 2, await I(3) };
        var dict = new Dictionary<string, int> { ["a"] = await I(1), [await S("b")] = 2 };
        var more = new Dictionary<string, int> { { await S("c"), await I(3) }, { "d", 4 } };
        foreach (var kv in more) dict[kv.Key] = kv.Value;
        var parts = new List<string>();
        foreach (var kv in dict) parts.Add(kv.Key + "=" + kv.Value);
        return string.Join(",", list) + " " + string.Join(",", parts);
    }

    static async Task<string> Interpolation(int n)
    {
        var s = $"n={n} a={await I(n + 1)} b={await S("bee"),5}| c={await I(255):X4} d={n * await I(2)}";
        return s + $"{await S("!")}";
    }

    static async Task<string> TuplesAndAnonymous()
    {
        var t = (await I(1), "two", await S("three"), 4.5);
        var anon = new { A = await I(10), B = await S("bb"), C = t.Item1 };
        return $"{t} {anon.A} {anon.B} {anon.C}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Objects());
            Console.WriteLine(await Arrays());
            Console.WriteLine(await Collections());
            Console.WriteLine(await Interpolation(7));
            Console.WriteLine(await TuplesAndAnonymous());
        }
    }
}
