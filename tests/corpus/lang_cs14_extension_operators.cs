// C# 14 extension blocks around awaits: extension operators (static binary/unary), extension compound assignment and increment on ref struct receivers (locals, static fields, array elements), ref-receiver extension properties assigned/compound-assigned with awaited values, generic extensions constrained to an interface on struct and class receivers, extensions on interfaces, on int?, static extension members on IEnumerable<T>, ref-returning extension property on arrays.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

struct Money { public long Cents; public Money(long c) { Cents = c; } public override string ToString() => $"${Cents / 100}.{Cents % 100:00}"; }
sealed class Bag { public List<string> Items = new(); public override string ToString() => "[" + string.Join(",", Items) + "]"; }
interface IShape { double Area { get; } string Name { get; } }
readonly record struct Sq(double Side) : IShape { public double Area => Side * Side; public string Name => "sq"; }
sealed record Circle(double R) : IShape { public double Area => 3 * R * R; public string Name => "circle"; }

static class Ext
{
    extension(Money)
    {
        public static Money operator +(Money a, Money b) { Program.Log($"M+"); return new Money(a.Cents + b.Cents); }
        public static Money operator *(Money a, int k) => new Money(a.Cents * k);
        public static Money operator -(Money a) => new Money(-a.Cents);
        public static Money Zero => default;
        public static async Task<Money> ParseAsync(string s) { await Program.Pause(); return new Money((long)(decimal.Parse(s, System.Globalization.CultureInfo.InvariantCulture) * 100)); }
    }
    extension(ref Money m)
    {
        public void operator +=(long c) { Program.Log($"M+={c}"); m.Cents += c; }
        public void operator ++() { Program.Log("M++"); m.Cents += 100; }
        public long Dollars { get => m.Cents / 100; set { Program.Log($"setDollars({value})"); m.Cents = value * 100 + m.Cents % 100; } }
    }
    extension(Bag b)
    {
        public void operator +=(string s) { Program.Log($"Bag+={s}"); b.Items.Add(s); }
        public static Bag operator |(Bag x, Bag y) { var r = new Bag(); r.Items.AddRange(x.Items); r.Items.AddRange(y.Items); return r; }
        public int Count => b.Items.Count;
        public string this_First => b.Items.FirstOrDefault() ?? "-";
    }
    extension<T>(T shape) where T : IShape
    {
        public string Describe => $"{shape.Name}:{shape.Area}";
        public async Task<double> ScaledAreaAsync(int k) { var before = shape.Area; await Program.Pause(); return before * k + shape.Area; }
    }
    extension(IShape s)
    {
        public bool IsBig => s.Area > 10;
    }
    extension(int? n)
    {
        public int OrZero => n ?? 0;
        public string Show => n is null ? "null" : $"<{n}>";
        public async Task<int> PlusAsync(int k) { await Program.Pause(); return (n ?? -1000) + k; }
    }
    extension<T>(IEnumerable<T> seq)
    {
        public async Task<List<T>> ToListSlowAsync() { var l = new List<T>(); foreach (var x in seq) { await Program.Pause(); l.Add(x); } return l; }
        public static IEnumerable<T> Twice(T x) => new[] { x, x };
    }
    extension<T>(T[] arr)
    {
        public T Last => arr[^1];
        public ref T FirstRef => ref arr[0];
    }
}

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();
    public static void Log(string s) => s_log.Add(s);
    public static async Task Pause() { if (s_suspend) await Task.Yield(); }
    static async Task<int> Val(int x) { Log($"Val({x})"); await Pause(); return x; }
    static async Task<T> V<T>(T x) { Log($"V({x})"); await Pause(); return x; }

    static Money s_field;
    static Money[] s_arr = new Money[2];

    static async Task<string> Ops()
    {
        Money m = await Money.ParseAsync("1.25");
        m += await Val(10);
        m++;
        var sum = m + await Money.ParseAsync("0.05") + Money.Zero;
        var neg = -(await V(sum)) * await Val(2);
        m.Dollars = await Val(7);
        m.Dollars += await Val(1);
        s_field += await Val(3);
        s_field++;
        s_field.Dollars = await Val(9);
        s_arr[await Val(1)] += await Val(4);
        s_arr[1]++;
        s_arr[0].Dollars += await Val(2);
        var copy = m;
        copy += await Val(1);
        return $"{m} {sum} {neg} {s_field} {s_arr[0]} {s_arr[1]} copy={copy}";
    }

    static async Task<string> Bags()
    {
        var b = new Bag();
        b.Items.Add(await V("x"));
        b.Items.Add("y");
        var c = new Bag();
        c.Items.Add(await V("z"));
        var u = b | await V(c);
        u = u | await V(new Bag { Items = { await V("w") + await V("!") } });
        return $"{b} {c} {u} {u.Count} {u.this_First}";
    }

    static async Task<string> Shapes()
    {
        var sq = new Sq(await V(2.0));
        IShape circle = new Circle(await V(1.0));
        double a1 = await sq.ScaledAreaAsync(await Val(2));
        double a2 = await circle.ScaledAreaAsync(3);
        var shapes = new List<IShape> { sq, circle, new Sq(4) };
        var list = await shapes.Where(s => s.IsBig || s.Area < 4).ToListSlowAsync();
        var twice = IEnumerable<string>.Twice(await V("t"));
        return $"{sq.Describe} {circle.Describe} {a1} {a2} {string.Join(";", list.Select(s => s.Describe))} {string.Join("", twice)}";
    }

    static async Task<string> Nullables()
    {
        int? n = null;
        int? m = await V<int?>(5);
        string s = n.Show + m.Show + (await V<int?>(null)).Show;
        int z = n.OrZero + m.OrZero + await Val(1);
        int p = await n.PlusAsync(await Val(1)) + await m.PlusAsync(2);
        var arr = new[] { await Val(1), 2, await Val(3) };
        int ten = await Val(10);
        arr.FirstRef += ten;
        int last = arr.Last + await Val(100);
        return $"{s} {z} {p} {string.Join(",", arr)} {last}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            s_field = default; s_arr = new Money[2];
            Console.WriteLine($"suspend={suspend}");
            foreach (var (name, f) in new (string, Func<Task<string>>)[] { ("ops", Ops), ("bags", Bags), ("shapes", Shapes), ("nullables", Nullables) })
            {
                s_log.Clear();
                Console.WriteLine($"  {name}: {await f()}");
                Console.WriteLine($"    log: {string.Join(" ", s_log)}");
            }
        }
    }
}
