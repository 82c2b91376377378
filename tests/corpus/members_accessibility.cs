// Async methods of every accessibility and placement: private, protected, internal, protected
// internal and private protected instance methods, private nested classes, static classes, a
// sealed class's private static helper, async methods of a class nested in a struct, and a generic
// method of a private nested generic class reached only through a public wrapper.
using System;
using System.Threading.Tasks;

public class Host
{
    private int _calls;

    private async Task<int> PrivateStep(int x)
    {
        await Program.Pause();
        _calls++;
        return x + 1;
    }

    protected async Task<int> ProtectedStep(int x) => await PrivateStep(x) * 2;
    internal async Task<int> InternalStep(int x) => await ProtectedStep(x) + 3;
    protected internal virtual async Task<int> ProtectedInternalStep(int x)
    {
        await Program.Pause();
        return await InternalStep(x) - 1;
    }
    private protected async Task<string> PrivateProtectedStep(int x) => $"pp{await ProtectedInternalStep(x)}";

    public async Task<string> Public(int x)
    {
        var s = await PrivateProtectedStep(x);
        var hidden = await Hidden<string>.Wrap(s);
        return $"{hidden} calls={_calls}";
    }

    private sealed class Hidden<T>
    {
        public static async Task<string> Wrap(T value)
        {
            await Program.Pause();
            return $"hidden<{typeof(T).Name}>({value})";
        }
    }
}

public sealed class Derived : Host
{
    protected internal override async Task<int> ProtectedInternalStep(int x) => await base.ProtectedInternalStep(x) * 100;
}

public static class Tools
{
    internal static async Task<string> Shout(string s)
    {
        await Program.Pause();
        return s.ToUpperInvariant() + "!";
    }
}

public struct Container
{
    public int Id;

    public async Task<string> Describe() => await new Nested(Id).Run();

    private sealed class Nested(int id)
    {
        public async Task<string> Run()
        {
            await Program.Pause();
            return $"nested in struct {id}";
        }
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await new Host().Public(1));
            Console.WriteLine(await new Derived().Public(1));
            Console.WriteLine(await new Host().InternalStep(5));
            Console.WriteLine(await Tools.Shout("hey"));
            Console.WriteLine(await new Container { Id = 8 }.Describe());
        }
    }
}
