// Access from async bodies (moved to another type by a rewriter) to members only the method's own
// type may reach: protected members of a generic base reached through `this` and through another
// instance of the derived type, protected static members, a nested class of a derived class using its
// outer's inherited protected members, private nested types used as type arguments of generic
// methods and of generic base classes, private nested structs with static abstract interface members,
// private protected members, file-scoped types, and async methods of record structs.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

interface IShape<TSelf> where TSelf : IShape<TSelf>
{
    static abstract TSelf Unit { get; }
    static abstract Task<TSelf> ScaleAsync(TSelf s, int k);
    int Size { get; }
}

abstract class Store<TItem>
{
    protected readonly List<TItem> Items = new();
    protected static int s_created;
    protected int Version;
    private protected string Tag = "store";
    protected Store() => s_created++;
    protected virtual async Task<int> AddCore(TItem item)
    {
        await Program.Pause();
        Items.Add(item);
        return ++Version;
    }
    protected static async Task<string> Describe(Store<TItem> s)
    {
        await Program.Pause();
        return $"{s.Tag}:{s.Items.Count}";
    }
}

sealed class Catalog<T> : Store<Catalog<T>.Entry>
{
    internal sealed record Entry(T Value, int Rank);

    private sealed class Square : IShape<Square>
    {
        private int _side;
        public int Size => _side * _side;
        public static Square Unit => new() { _side = 1 };
        public static async Task<Square> ScaleAsync(Square s, int k)
        {
            await Program.Pause();
            return new Square { _side = s._side * k };
        }
    }

    private static async Task<TShape> Grow<TShape>(TShape start, int times) where TShape : IShape<TShape>
    {
        var s = start;
        for (int i = 0; i < times; i++) s = await TShape.ScaleAsync(s, 2);
        return s;
    }

    private async Task<Entry> Make(T value)
    {
        await Program.Pause();
        return new Entry(value, Items.Count + 1);
    }

    protected override async Task<int> AddCore(Entry item)
    {
        Tag = "catalog";
        int v = await base.AddCore(item);
        Version += 10;
        return v;
    }

    public async Task<string> Add(T value)
    {
        var entry = await Make(value);
        int v = await AddCore(entry);
        var sq = await Grow(Square.Unit, entry.Rank);
        return $"{entry} v={v} version={Version} square={sq.Size} created={s_created}";
    }

    public async Task<string> Merge(Catalog<T> other)
    {
        await Program.Pause();
        foreach (var e in other.Items) Items.Add(e with { Rank = e.Rank + 100 });
        other.Version = -1;
        other.Tag = "merged";
        return $"{await Describe(this)} {await Describe(other)} other.version={other.Version}";
    }

    public sealed class Auditor
    {
        public async Task<string> Audit(Catalog<T> c)
        {
            await Program.Pause();
            c.Version++;
            var ranks = new List<int>();
            foreach (Entry e in c.Items) ranks.Add(e.Rank);
            return $"audit {string.Join(",", ranks)} v={c.Version} tag={c.Tag} {await Catalog<T>.Describe(c)}";
        }
    }
}

file sealed class Secret
{
    private int _n;
    private static int s_total;
    static Secret() => Console.WriteLine("Secret cctor");
    public async Task<int> Bump(int by)
    {
        await Program.Pause();
        _n += by;
        s_total += by;
        return _n * 1000 + s_total;
    }
    public static async Task<int> Total() { await Program.Pause(); return s_total; }
}

file static class FileHelpers
{
    public static async Task<string> Run()
    {
        var s = new Secret();
        int a = await s.Bump(2);
        int b = await s.Bump(3);
        return $"{a} {b} {await Secret.Total()}";
    }
}

record struct Point(int X, int Y)
{
    public async Task<Point> MoveBy(int dx)
    {
        X += dx;
        await Program.Pause();
        Y += dx;
        return this;
    }
    public readonly async Task<int> Sum() { await Program.Pause(); return X + Y; }
}

static class Program
{
    public static bool Suspend;
    public static async Task Pause() { if (Suspend) await Task.Yield(); }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var a = new Catalog<string>();
            Console.WriteLine(await a.Add("x"));
            Console.WriteLine(await a.Add("y"));
            var b = new Catalog<string>();
            Console.WriteLine(await b.Add("z"));
            Console.WriteLine(await a.Merge(b));
            Console.WriteLine(await new Catalog<string>.Auditor().Audit(a));
            var n = new Catalog<int>();
            Console.WriteLine(await n.Add(5));
            Console.WriteLine(await FileHelpers.Run());
            var p = new Point(1, 2);
            var moved = await p.MoveBy(5);
            Console.WriteLine($"{p} {moved} {await moved.Sum()}");
        }
    }
}
