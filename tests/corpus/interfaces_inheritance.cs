// Interface hierarchies with async members: a diamond of interfaces where the most specific default
// implementation wins, a class implementing a derived interface whose base method it implements
// implicitly, generic interfaces inherited at different instantiations, an abstract class
// implementing an interface with an abstract method that subclasses override, and interface calls
// made from inside default methods of other interfaces.
using System;
using System.Threading.Tasks;

interface INamed
{
    Task<string> Name();
}

interface ILeft : INamed
{
    async Task<string> INamed.Name()
    {
        await Program.Pause();
        return "left";
    }
}

interface IRight : INamed
{
    Task<string> Side() => Task.FromResult("right side");
}

interface IBoth : ILeft, IRight
{
    async Task<string> Describe() => $"{await Name()} + {await Side()}";
}

sealed class Diamond : IBoth { }

sealed class Overriding : IBoth
{
    public async Task<string> Name()
    {
        await Program.Pause();
        return "own name";
    }
}

interface IConvert<TIn, TOut>
{
    Task<TOut> Convert(TIn value);
}

interface IToText<T> : IConvert<T, string>
{
    async Task<string> Twice(T value) => await Convert(value) + await Convert(value);
}

abstract class Converter<T> : IToText<T>
{
    public abstract Task<string> Convert(T value);
}

sealed class IntConverter : Converter<int>
{
    public override async Task<string> Convert(int value)
    {
        await Program.Pause();
        return $"[{value}]";
    }
}

sealed class BoolConverter : Converter<bool>, IConvert<bool, int>
{
    public override async Task<string> Convert(bool value) => value ? "yes" : "no";

    async Task<int> IConvert<bool, int>.Convert(bool value)
    {
        await Program.Pause();
        return value ? 1 : 0;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Through<TIn, TOut>(IConvert<TIn, TOut> c, TIn v) => $"{await c.Convert(v)}";

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            IBoth d = new Diamond();
            Console.WriteLine($"{await d.Describe()} | {await ((INamed)d).Name()}");
            IBoth o = new Overriding();
            Console.WriteLine($"{await o.Describe()} | {await ((INamed)o).Name()}");
            IToText<int> ints = new IntConverter();
            Console.WriteLine($"{await ints.Twice(4)} {await Through(ints, 5)}");
            var bools = new BoolConverter();
            Console.WriteLine($"{await ((IToText<bool>)bools).Twice(true)} {await Through<bool, string>(bools, false)} {await Through<bool, int>(bools, true)}");
        }
    }
}
