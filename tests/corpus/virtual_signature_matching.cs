// Overrides and implementations whose signatures a name comparison gets wrong: multi-dimensional
// arrays (metadata may spell int[,] as int[0...,0...]) in a generic base's parameters, results and
// type arguments, and a method type parameter named like a class of the program (or like the
// class's own type parameter), which made two overloads look alike. Each call must run the
// override, through the base, the interface and the derived type.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

class Grid { public override string ToString() => "Grid"; }

class Base<T>
{
    public virtual async Task<string> Take(T value) { await Program.Pause(); return "Base.Take"; }
    public virtual async Task<T?> Make() { await Program.Pause(); return default; }
    public virtual async Task<string> Pair<U>(T first, U second) { await Program.Pause(); return "Base.Pair(T,U)"; }
}

class Matrix : Base<int[,]>
{
    public override async Task<string> Take(int[,] value) { await Program.Pause(); return $"Matrix.Take {value.Rank}"; }
    public override async Task<int[,]?> Make() { await Program.Pause(); return new int[2, 3]; }
    public override async Task<string> Pair<U>(int[,] first, U second) { await Program.Pause(); return $"Matrix.Pair {second}"; }
}

class Nested : Base<List<long[,,]>>
{
    public override async Task<string> Take(List<long[,,]> value) { await Program.Pause(); return $"Nested.Take {value.Count}"; }
}

class Jagged : Base<int[][,]>
{
    public override async Task<string> Take(int[][,] value) { await Program.Pause(); return $"Jagged.Take {value.Length}"; }
}

class Planes<T> : Base<T[,]>
{
    public override async Task<string> Take(T[,] value) { await Program.Pause(); return $"Planes<{typeof(T).Name}>.Take"; }
}

class TextPlanes : Planes<string>
{
    public override async Task<string> Take(string[,] value) { await Program.Pause(); return "TextPlanes.Take > " + await base.Take(value); }
}

class Overloads<Q>
{
    public virtual async Task<string> N<R>(Q a, R b) { await Program.Pause(); return "Overloads.N(Q,R)"; }
    public virtual async Task<string> N<R>(R a, R b) { await Program.Pause(); return "Overloads.N(R,R)"; }
}

// The method's type parameter is named Grid, as the class above.
class NameClash : Overloads<Grid>
{
#pragma warning disable CS0693
    public override async Task<string> N<Grid>(Grid a, Grid b) { await Program.Pause(); return "NameClash.N(R,R)"; }
#pragma warning restore CS0693
}

interface ISlots<Q>
{
    Task<string> N<R>(Q a, R b);
    Task<string> N<R>(R a, R b);
}

class ImplicitClash : ISlots<Grid>
{
    public async Task<string> N<R>(Grid a, R b) { await Program.Pause(); return "ImplicitClash.N(Q,R)"; }
#pragma warning disable CS0693
    public async Task<string> N<Grid>(Grid a, Grid b) { await Program.Pause(); return "ImplicitClash.N(R,R)"; }
#pragma warning restore CS0693
}

interface ISurface<T> { Task<string> Paint(T surface); }

class Canvas : ISurface<int[,]>
{
    public virtual async Task<string> Paint(int[,] surface) { await Program.Pause(); return "Canvas.Paint"; }
}

class Mural : Canvas
{
    public override async Task<string> Paint(int[,] surface) { await Program.Pause(); return "Mural.Paint > " + await base.Paint(surface); }
}

static class Program
{
    static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task Main()
    {
        foreach (bool suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Base<int[,]> matrix = new Matrix();
            Console.WriteLine(await matrix.Take(new int[1, 1]));
            Console.WriteLine((await matrix.Make())?.Length.ToString() ?? "null");
            Console.WriteLine(await matrix.Pair(new int[1, 1], 2.5));
            Base<List<long[,,]>> nested = new Nested();
            Console.WriteLine(await nested.Take([new long[1, 1, 1]]));
            Base<int[][,]> jagged = new Jagged();
            Console.WriteLine(await jagged.Take(new int[3][,]));
            Base<long[,]> planes = new Planes<long>();
            Console.WriteLine(await planes.Take(new long[1, 1]));
            Base<string[,]> text = new TextPlanes();
            Console.WriteLine(await text.Take(new string[1, 1]));
            Planes<string> textAsPlanes = new TextPlanes();
            Console.WriteLine(await textAsPlanes.Take(new string[1, 1]));
            Overloads<Grid> clash = new NameClash();
            Console.WriteLine(await clash.N(new Grid(), "x"));
            Console.WriteLine(await clash.N("a", "b"));
            ISlots<Grid> slots = new ImplicitClash();
            Console.WriteLine(await slots.N(new Grid(), 1));
            Console.WriteLine(await slots.N(1, 2));
            foreach (ISurface<int[,]> surface in new Canvas[] { new Canvas(), new Mural() })
                Console.WriteLine(await surface.Paint(new int[1, 1]));
            Canvas canvas = new Mural();
            Console.WriteLine(await canvas.Paint(new int[1, 1]));
        }
    }
}
