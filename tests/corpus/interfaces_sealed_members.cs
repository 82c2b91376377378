// Non-virtual (sealed) interface members with async bodies, called through the interface on
// objects whose class has a public method of the same name and signature (its own, or one that
// implements another interface): the interface's own body runs, not the class's.
using System;
using System.Threading.Tasks;

interface IGreeter
{
    Task<string> Name();

    sealed async Task<string> Greet(int n)
    {
        await Program.Pause();
        return $"IGreeter.Greet sealed {n}: " + await Name();
    }

    sealed Task<string> Wave(int n) => Task.FromResult($"IGreeter.Wave sealed plain {n}");
}

interface IShout
{
    Task<string> Greet(int n);
    Task<string> Wave(int n);
}

class Loud : IGreeter, IShout
{
    public async Task<string> Name()
    {
        await Program.Pause();
        return "Loud";
    }

    // Implements IShout.Greet; IGreeter.Greet is sealed, so it is not an implementation of it.
    public async Task<string> Greet(int n)
    {
        await Program.Pause();
        return $"Loud.Greet {n}";
    }

    public async Task<string> Wave(int n)
    {
        await Program.Pause();
        return $"Loud.Wave {n}";
    }
}

class Quiet : IGreeter
{
    public Task<string> Name() => Task.FromResult("Quiet");

    public virtual async Task<string> Greet(int n)
    {
        await Program.Pause();
        return $"Quiet.Greet virtual {n}";
    }

    public virtual async Task<string> Wave(int n)
    {
        await Program.Pause();
        return $"Quiet.Wave virtual {n}";
    }
}

sealed class SealedQuiet : IGreeter
{
    public Task<string> Name() => Task.FromResult("SealedQuiet");

    public async Task<string> Greet(int n)
    {
        await Program.Pause();
        return $"SealedQuiet.Greet {n}";
    }
}

struct StructGreeter : IGreeter, IShout
{
    public Task<string> Name() => Task.FromResult("StructGreeter");

    public async Task<string> Greet(int n)
    {
        await Program.Pause();
        return $"StructGreeter.Greet {n}";
    }

    public Task<string> Wave(int n) => Task.FromResult($"StructGreeter.Wave plain {n}");
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> ViaGreeter(IGreeter g, int n) => $"{await g.Greet(n)} | {await g.Wave(n)}";
    static async Task<string> ViaShout(IShout s, int n) => $"{await s.Greet(n)} | {await s.Wave(n)}";
    static async Task<string> ViaConstrained<T>(T g, int n) where T : IGreeter => $"{await g.Greet(n)} | {await g.Wave(n)}";

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            IGreeter[] all = [new Loud(), new Quiet(), new SealedQuiet(), new StructGreeter()];
            int i = 0;
            foreach (var g in all)
            {
                Console.WriteLine($"{g.GetType().Name} as IGreeter: {await ViaGreeter(g, i)}");
                Console.WriteLine($"{g.GetType().Name} direct: {await g.Greet(i + 10)}");
                if (g is IShout s)
                    Console.WriteLine($"{g.GetType().Name} as IShout: {await ViaShout(s, i)}");
                i++;
            }
            Console.WriteLine($"constrained Loud: {await ViaConstrained(new Loud(), 20)}");
            Console.WriteLine($"constrained struct: {await ViaConstrained(new StructGreeter(), 21)}");
            Console.WriteLine($"class Quiet: {await new Quiet().Greet(22)}");
        }
    }
}
