// Overloaded async methods sharing one name (so their variants share it too): virtual overloads
// differing in parameter types (int, long, string, object) and count, a generic overload beside
// non-generic ones, overrides of some overloads but not others, a base call to a different overload
// than the one overridden, and the same overload set implemented for an interface.
using System;
using System.Threading.Tasks;

interface ISink
{
    Task<string> Put(int value);
    Task<string> Put(string value);
    Task<string> Put<T>(T value, int times);
}

class Sink : ISink
{
    public virtual async Task<string> Put(int value)
    {
        await Program.Pause();
        return $"int {value}";
    }

    public virtual async Task<string> Put(long value)
    {
        await Program.Pause();
        return $"long {value}";
    }

    public virtual async Task<string> Put(string value)
    {
        await Program.Pause();
        return $"string {value}";
    }

    public virtual async Task<string> Put(object value)
    {
        await Program.Pause();
        return $"object {value}";
    }

    public virtual async Task<string> Put<T>(T value, int times)
    {
        var s = "";
        for (int i = 0; i < times; i++)
        {
            await Program.Pause();
            s += $"{typeof(T).Name}:{value};";
        }
        return s;
    }

    public async Task<string> Put() => await Put(0) + "/" + await Put("") + "/" + await Put((object)1.5);
}

sealed class LoudSink : Sink
{
    public override async Task<string> Put(string value) => (await base.Put(value.ToUpperInvariant())) + "!";

    public override async Task<string> Put<T>(T value, int times)
    {
        await Program.Pause();
        return "loud " + await base.Put(value, times + 1);
    }

    public override async Task<string> Put(long value) => "long via int overload: " + await base.Put((int)value);
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> All(Sink s) =>
        string.Join(" | ", await s.Put(1), await s.Put(2L), await s.Put("s"), await s.Put(new object()), await s.Put(3.5, 2), await s.Put());

    static async Task<string> ViaInterface(ISink s) => string.Join(" | ", await s.Put(4), await s.Put("i"), await s.Put('c', 1));

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await All(new Sink()));
            Console.WriteLine(await All(new LoudSink()));
            Console.WriteLine(await ViaInterface(new Sink()));
            Console.WriteLine(await ViaInterface(new LoudSink()));
        }
    }
}
