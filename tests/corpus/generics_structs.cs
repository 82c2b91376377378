// Async methods of structs: instance methods of mutable, readonly, record and generic structs
// (the method works on a copy of the struct, so the caller's value never changes), structs
// calling their own async methods, static async methods of structs, and struct instance methods
// reached through a constrained type parameter.
using System;
using System.Threading.Tasks;

interface IAccumulator
{
    Task<int> AddAsync(int n);
}

struct Counter : IAccumulator
{
    public int Count;

    public async Task<int> AddAsync(int n)
    {
        Count += n; // before the first await: still only the copy
        await Program.Pause();
        Count += n;
        return Count;
    }

    public async Task<string> TwiceAsync(int n)
    {
        var first = await AddAsync(n);   // on this method's copy, which AddAsync copies again
        var second = await AddAsync(n);
        Count += 100;
        await Program.Pause();
        return $"{first},{second},{Count}";
    }

    public static async Task<Counter> StartAtAsync(int count)
    {
        await Program.Pause();
        return new Counter { Count = count };
    }
}

readonly struct Temperature
{
    public readonly double Celsius;
    public Temperature(double celsius) { Celsius = celsius; }

    public async Task<string> FormatAsync(string unit)
    {
        await Program.Pause();
        var value = unit == "F" ? Celsius * 9 / 5 + 32 : Celsius;
        await Program.Pause();
        return $"{value}{unit} (from {Celsius}C)";
    }
}

record struct Span(int Start, int Length)
{
    public async ValueTask<int> EndAsync()
    {
        await Program.Pause();
        return Start + Length;
    }
}

struct Wrapper<T>
{
    public T Value;
    public int Reads;

    public async Task<T> ReadAsync()
    {
        Reads++;
        await Program.Pause();
        Reads++;
        return Value;
    }

    public async Task<(T, U)> ZipAsync<U>(U other)
    {
        var mine = await ReadAsync();
        await Program.Pause();
        return (mine, other);
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<int> AddThrough<T>(T accumulator, int n) where T : IAccumulator
    {
        var a = await accumulator.AddAsync(n);   // constrained call on a struct type parameter
        var b = await accumulator.AddAsync(n);
        return a * 1000 + b;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var counter = new Counter { Count = 1 };
            Console.WriteLine($"AddAsync = {await counter.AddAsync(5)}, caller sees {counter.Count}");
            Console.WriteLine($"TwiceAsync = {await counter.TwiceAsync(2)}, caller sees {counter.Count}");
            var started = await Counter.StartAtAsync(40);
            Console.WriteLine($"StartAtAsync = {started.Count}, then {await started.AddAsync(1)}");
            Console.WriteLine($"AddThrough<Counter> = {await AddThrough(counter, 3)}, caller sees {counter.Count}");
            Console.WriteLine($"AddThrough<IAccumulator> = {await AddThrough<IAccumulator>(counter, 3)}");
            var t = new Temperature(100);
            Console.WriteLine($"FormatAsync = {await t.FormatAsync("F")} / {await t.FormatAsync("C")}");
            var span = new Span(3, 4);
            Console.WriteLine($"EndAsync = {await span.EndAsync()}");
            var ints = new Wrapper<int> { Value = 7 };
            Console.WriteLine($"Wrapper<int>.ReadAsync = {await ints.ReadAsync()}, caller reads {ints.Reads}");
            var strings = new Wrapper<string> { Value = "w" };
            Console.WriteLine($"Wrapper<string>.ZipAsync = {await strings.ZipAsync(2.5)}");
            var nested = new Wrapper<Counter> { Value = new Counter { Count = 9 } };
            Console.WriteLine($"Wrapper<Counter>.ZipAsync = {(await nested.ZipAsync("z")).Item1.Count}");
        }
    }
}
