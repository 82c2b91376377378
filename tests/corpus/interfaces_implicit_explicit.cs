// Interface methods implemented implicitly and explicitly (private methods named I.M with a
// methodimpl), both at once on one class, two interfaces with the same method implemented
// separately, generic interfaces implemented twice over different arguments, and calls through the
// interface, through the class, and from the class's own async methods.
using System;
using System.Threading.Tasks;

interface IReader
{
    Task<string> Read(int n);
}

interface ILegacyReader
{
    Task<string> Read(int n);
}

interface IHandler<T>
{
    Task<string> Handle(T item);
}

class Device : IReader, ILegacyReader, IHandler<int>, IHandler<string>
{
    private int _reads;

    // Implicit implementation of IReader.Read (ILegacyReader gets its own explicit one).
    public async Task<string> Read(int n)
    {
        await Program.Pause();
        _reads++;
        return $"read{n}";
    }

    async Task<string> ILegacyReader.Read(int n)
    {
        var modern = await Read(n + 100);
        await Program.Pause();
        return "legacy:" + modern;
    }

    async Task<string> IHandler<int>.Handle(int item)
    {
        await Program.Pause();
        return $"int {item * 2}";
    }

    async Task<string> IHandler<string>.Handle(string item)
    {
        var viaInt = await ((IHandler<int>)this).Handle(item.Length);
        return $"string {item} ({viaInt})";
    }

    public async Task<string> All()
    {
        var a = await Read(1);
        var b = await ((ILegacyReader)this).Read(2);
        var c = await ((IHandler<string>)this).Handle("abc");
        return $"{a} | {b} | {c} | reads={_reads}";
    }
}

sealed class LoudDevice : Device, IReader
{
    // Re-implements IReader only: ILegacyReader still reaches Device's explicit method, which calls Device.Read.
    async Task<string> IReader.Read(int n)
    {
        await Program.Pause();
        return "LOUD " + await base.Read(n);
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Both(object o, int n)
    {
        var r = o is IReader reader ? await reader.Read(n) : "-";
        var l = o is ILegacyReader legacy ? await legacy.Read(n) : "-";
        return $"{o.GetType().Name}: {r} / {l}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Both(new Device(), 5));
            Console.WriteLine(await Both(new LoudDevice(), 6));
            Console.WriteLine(await new Device().All());
            Console.WriteLine(await new LoudDevice().All());
            IHandler<int> h = new LoudDevice();
            Console.WriteLine(await h.Handle(21));
        }
    }
}
