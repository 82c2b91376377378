// Generic math and self-referencing (CRTP) constraints across awaits: INumber<T> with T.Zero,
// T.CreateChecked/CreateSaturating, operators and comparisons carried over suspensions, a
// user type that implements only IAdditionOperators<T,T,T> (class and struct), static virtual
// members with defaults that some implementations replace, called through constrained calls
// from generic async methods of generic types whose own parameters are constrained too.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Numerics;
using System.Threading.Tasks;

interface IShape<TSelf> where TSelf : IShape<TSelf>
{
    static abstract string Kind { get; }
    static virtual int Corners => 0;
    static virtual async Task<string> Label(TSelf shape)
    {
        await Program.Pause();
        return $"{TSelf.Kind}[{TSelf.Corners}]:{shape}";
    }
    double Area();
}

struct Tri : IShape<Tri>
{
    public double B, H;
    public static string Kind => "tri";
    public static int Corners => 3;
    public double Area() => B * H / 2;
    public override string ToString() => $"{B}x{H}";
}

sealed class Disc : IShape<Disc>
{
    public double R;
    public static string Kind => "disc";
    public static async Task<string> Label(Disc shape)
    {
        await Program.Pause();
        return $"custom disc r={shape.R}";
    }
    public double Area() => Math.Round(Math.PI * R * R, 3);
    public override string ToString() => $"r{R}";
}

class Rect : IShape<Rect>
{
    public double W, H;
    public static string Kind => "rect";
    public static int Corners => 4;
    public double Area() => W * H;
    public override string ToString() => $"{W}/{H}";
}

readonly record struct Money(long Cents) : IAdditionOperators<Money, Money, Money>, IAdditiveIdentity<Money, Money>
{
    public static Money operator +(Money a, Money b) => new(a.Cents + b.Cents);
    public static Money operator checked +(Money a, Money b) => new(checked(a.Cents + b.Cents));
    public static Money AdditiveIdentity => new(0);
    public override string ToString() => $"${Cents / 100}.{Cents % 100:D2}";
}

sealed class Text : IAdditionOperators<Text, Text, Text>, IAdditiveIdentity<Text, Text>
{
    public readonly string Value;
    public Text(string value) => Value = value;
    public static Text operator +(Text a, Text b) => new(a.Value + b.Value);
    public static Text AdditiveIdentity => new("");
    public override string ToString() => Value;
}

abstract class Node<TSelf> : IComparable<TSelf> where TSelf : Node<TSelf>
{
    public int Rank;
    public int CompareTo(TSelf? other) => Rank.CompareTo(other?.Rank ?? int.MinValue);
    public abstract Task<TSelf> Next();
}

sealed class Leaf : Node<Leaf>
{
    public override async Task<Leaf> Next()
    {
        await Program.Pause();
        return new Leaf { Rank = Rank + 1 };
    }
    public override string ToString() => $"leaf{Rank}";
}

sealed class Calculator<TNum> where TNum : INumber<TNum>, IMinMaxValue<TNum>
{
    public TNum Total = TNum.Zero;

    public async Task<TNum> AddAll<TSource>(IEnumerable<TSource> values) where TSource : INumberBase<TSource>
    {
        foreach (var v in values)
        {
            var converted = TNum.CreateSaturating(v);
            await Program.Pause();
            Total += converted;
        }
        return Total;
    }

    public async ValueTask<(TNum Min, TNum Max, bool Over)> Range<TOther>(TOther probe) where TOther : struct, INumber<TOther>
    {
        TNum min = TNum.MaxValue, max = TNum.MinValue;
        await Program.Pause();
        min = TNum.Min(min, Total);
        max = TNum.Max(max, Total);
        bool over = TOther.CreateTruncating(Total) > probe;
        await Program.Pause();
        return (min, max, over);
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<T> Sum<T>(IReadOnlyList<Task<T>> parts) where T : IAdditionOperators<T, T, T>, IAdditiveIdentity<T, T>
    {
        T total = T.AdditiveIdentity;
        for (int i = 0; i < parts.Count; i++)
            total = total + await parts[i];
        return total;
    }

    static async Task<T> Later<T>(T value)
    {
        await Pause();
        return value;
    }

    static async Task<string> Poly<T>(T x, int degree) where T : INumber<T>
    {
        T acc = T.Zero;
        T power = T.One;
        for (int i = 0; i <= degree; i++)
        {
            var coefficient = T.CreateChecked(i + 1);
            await Pause();
            acc += coefficient * power;
            power *= x;
        }
        bool positive = acc > T.Zero;
        await Pause();
        return $"{typeof(T).Name}: {acc.ToString(null, CultureInfo.InvariantCulture)} positive={positive} sign={T.Sign(acc)}";
    }

    static async Task<string> CheckedOverflow<T>(T a, T b) where T : IBinaryInteger<T>
    {
        try
        {
            await Pause();
            T c = checked(a + b);
            await Pause();
            return $"ok {c}";
        }
        catch (OverflowException)
        {
            await Pause();
            return $"overflow {typeof(T).Name} lz={T.LeadingZeroCount(a)} pop={T.PopCount(b)}";
        }
    }

    static async Task<string> Describe<TShape>(TShape[] shapes) where TShape : IShape<TShape>
    {
        var parts = new List<string>();
        foreach (var shape in shapes)
        {
            var label = await TShape.Label(shape);
            await Pause();
            parts.Add($"{label}={shape.Area()}");
        }
        return $"{TShape.Kind}: {string.Join("; ", parts)}";
    }

    static async Task<TNode> Climb<TNode>(TNode start, int steps) where TNode : Node<TNode>
    {
        TNode best = start;
        TNode current = start;
        for (int i = 0; i < steps; i++)
        {
            current = await current.Next();
            if (current.CompareTo(best) > 0)
                best = current;
        }
        return best;
    }

    static async Task<T> MaxBy<T>(IEnumerable<T> items) where T : IComparable<T>
    {
        T? best = default;
        bool any = false;
        foreach (var item in items)
        {
            await Pause();
            if (!any || item.CompareTo(best!) > 0)
                (best, any) = (item, true);
        }
        return best!;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Sum(new[] { Later(new Money(150)), Later(new Money(275)) }));
            Console.WriteLine(await Sum(new[] { Later(new Text("a")), Later(new Text("b")), Later(new Text("c")) }));
            Console.WriteLine(await Sum(new[] { Later(1.5), Later(2.25) }));
            Console.WriteLine(await Sum(new[] { Later(BigInteger.Pow(10, 30)), Later(BigInteger.One) }));
            Console.WriteLine(await Poly(2, 3));
            Console.WriteLine(await Poly(0.5m, 4));
            Console.WriteLine(await Poly(-3L, 2));
            Console.WriteLine(await Poly((Half)1.5, 2));
            Console.WriteLine(await Poly(new BigInteger(7), 5));
            Console.WriteLine(await Poly((Int128)(-5), 3));
            Console.WriteLine(await CheckedOverflow(int.MaxValue, 1));
            Console.WriteLine(await CheckedOverflow((byte)200, (byte)100));
            Console.WriteLine(await CheckedOverflow(3UL, 4UL));
            Console.WriteLine(await Describe(new[] { new Tri { B = 3, H = 4 }, new Tri { B = 1, H = 1 } }));
            Console.WriteLine(await Describe(new[] { new Disc { R = 1 } }));
            Console.WriteLine(await Describe(new[] { new Rect { W = 2, H = 5 } }));
            Console.WriteLine(await Climb(new Leaf { Rank = 3 }, 4));
            Console.WriteLine($"{await MaxBy(new[] { 3, 9, 2 })} {await MaxBy(new[] { "pear", "apple", "zoo" })} {await MaxBy(new[] { new Leaf { Rank = 1 }, new Leaf { Rank = 5 } })}");
            var calc = new Calculator<short>();
            Console.WriteLine($"{await calc.AddAll(new[] { 30000.7, 5000.0 })} {await calc.Range(100)} {await calc.Range(40000)}");
            var calc2 = new Calculator<decimal>();
            Console.WriteLine($"{await calc2.AddAll(new[] { 1, 2, 3 })} {await calc2.Range((byte)5)}");
            var calc3 = new Calculator<UInt128>();
            Console.WriteLine($"{await calc3.AddAll(new[] { -5L, 7L })} {await calc3.Range(6.5)}");
        }
    }
}
