// async Task members of partial classes (parts in several declarations, a partial method with an
// async implementation, C# 9 extended partial methods), record classes with async methods, virtual
// async methods in a record hierarchy, a record's async method using with-expressions, and a partial
// record.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

partial class Workflow
{
    private readonly List<string> _steps = new();

    public async Task<string> Run(int n)
    {
        for (int i = 0; i < n; i++)
            await Step(i);
        await Finish();
        return string.Join(" ", _steps);
    }

    private partial Task Step(int i);
    public partial Task<int> Count();
}

partial class Workflow
{
    private async partial Task Step(int i)
    {
        await Program.Pause();
        _steps.Add($"s{i}");
    }

    public async partial Task<int> Count()
    {
        await Program.Pause();
        return _steps.Count;
    }
}

partial class Workflow
{
    private async Task Finish()
    {
        await Program.Pause();
        _steps.Add($"done({await Count()})");
    }
}

abstract record Shape(string Name)
{
    public abstract Task<double> Area();

    public virtual async Task<string> Describe()
    {
        var a = await Area();
        return $"{Name} area {a}";
    }
}

record Rect(double W, double H) : Shape("rect")
{
    public override async Task<double> Area()
    {
        await Program.Pause();
        return W * H;
    }

    public async Task<Rect> Doubled()
    {
        await Program.Pause();
        return this with { W = W * 2 };
    }
}

sealed partial record Square(double Side) : Rect(Side, Side)
{
    public override async Task<string> Describe() => "square: " + await base.Describe();
}

sealed partial record Square
{
    public async Task<bool> SameAs(Square other)
    {
        await Program.Pause();
        return this == other;
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
            var w = new Workflow();
            Console.WriteLine(await w.Run(3));
            Console.WriteLine(await w.Count());
            foreach (Shape s in new Shape[] { new Rect(2, 3), new Square(4) })
                Console.WriteLine(await s.Describe());
            var r = await new Rect(1, 5).Doubled();
            Console.WriteLine($"{r} {await r.Area()}");
            var sq = new Square(2);
            Console.WriteLine($"{await sq.SameAs(new Square(2))} {await sq.SameAs(sq with { Side = 3 })}");
            Rect asRect = await sq.Doubled(); // with on a Square keeps the runtime type
            Console.WriteLine($"{asRect.GetType().Name} {asRect}");
        }
    }
}
