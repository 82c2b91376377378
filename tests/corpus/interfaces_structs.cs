// Structs implementing async interface methods: called through the boxed interface (each call works
// on the box, and the async method on a copy of it), through a constrained generic call (on a copy of
// the caller's variable), directly on a local, on an array element and on a readonly field, with
// mutation before and after the first await so the transcript shows which copy each call saw.
using System;
using System.Threading.Tasks;

interface ITally
{
    Task<int> Add(int n);
    int Total { get; }
}

struct Tally : ITally
{
    public int Count;
    public int Total => Count;

    public async Task<int> Add(int n)
    {
        Count += n;           // on the copy taken at entry
        await Program.Pause();
        Count += 1;           // still the copy
        return Count;
    }
}

readonly struct Fixed : ITally
{
    private readonly int _value;
    public Fixed(int value) => _value = value;
    public int Total => _value;

    public async Task<int> Add(int n)
    {
        await Program.Pause();
        return _value + n;
    }
}

sealed class Holder
{
    public Tally Mutable;
    public readonly Tally Readonly;
    public Tally[] Many = new Tally[2];
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Generic<T>(T tally) where T : ITally
    {
        int a = await tally.Add(1);
        int b = await tally.Add(10);
        return $"{typeof(T).Name}: {a} {b} total={tally.Total}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var local = new Tally { Count = 5 };
            Console.WriteLine($"local: {await local.Add(2)} then {local.Count}");

            ITally boxed = new Tally { Count = 5 };
            Console.WriteLine($"boxed: {await boxed.Add(2)} {await boxed.Add(2)} total={boxed.Total}");

            Console.WriteLine(await Generic(new Tally { Count = 100 }));
            Console.WriteLine(await Generic<ITally>(new Tally { Count = 100 }));
            Console.WriteLine(await Generic(new Fixed(40)));

            var h = new Holder();
            h.Mutable.Count = 7;
            h.Many[1].Count = 9;
            Console.WriteLine($"field: {await h.Mutable.Add(1)} then {h.Mutable.Count}");
            Console.WriteLine($"readonly field: {await h.Readonly.Add(1)} then {h.Readonly.Count}");
            Console.WriteLine($"element: {await h.Many[1].Add(1)} then {h.Many[1].Count}");

            ITally fixedBoxed = new Fixed(3);
            Console.WriteLine($"fixed boxed: {await fixedBoxed.Add(4)} total={fixedBoxed.Total}");
        }
    }
}
