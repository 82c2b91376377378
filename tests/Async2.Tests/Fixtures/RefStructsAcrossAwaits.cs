// Ref structs kept across an await, which classic C# rejects (CS4007) and the runtime-async compiler
// of SDK 10.0.401 compiles: the rewrite must refuse them (ASYNC2102), since their values cannot be
// kept in a continuation. RefStructsBesideAwaits holds the allowed uses, which must rewrite.
using System;
using System.Threading.Tasks;

ref struct Scope
{
    public int Id;
    public void Dispose() => Console.WriteLine("dispose " + Id);
}

static class RefStructsAcrossAwaits
{
    static async Task Pause() => await Task.Yield();
    static async Task<T> Value<T>(T value) { await Task.Yield(); return value; }

    static async Task<int> SpanOnTheStack(string text) => text.AsSpan().IndexOf(await Value('l'));

    static async Task<string> SpanLocal()
    {
        ReadOnlySpan<char> text = "hello";
        await Pause();
        return text.ToString();
    }

    static async Task UsingRefStruct()
    {
        using var scope = new Scope { Id = 42 };
        await Pause();
    }

    static async Task Main()
    {
        Console.WriteLine(await SpanOnTheStack("hello"));
        Console.WriteLine(await SpanLocal());
        await UsingRefStruct();
    }
}

static class RefStructsBesideAwaits
{
    static async Task<int> Value(int value) { await Task.Yield(); return value; }

    static async Task<int> Allowed(int[] numbers)
    {
        int sum = 0;
        for (int round = 0; round < 2; round++)
        {
            // Made anew after every await (through its constructor), used before the next one.
            var span = new Span<int>(numbers, 1, numbers.Length - 1);
            foreach (var n in span)
                sum += n;
            sum += await Value(round);
            Span<int> scratch = stackalloc int[2];
            scratch[0] = sum;
            sum = scratch[0] + await Value(1);
        }
        int awaitedFirst = await Value(2);
        return sum + "hello".AsSpan().IndexOf((char)('j' + awaitedFirst));
    }
}
