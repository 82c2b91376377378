// awaits in call arguments: Call(a, await G(), b) with several values pushed before the await,
// instance calls on classes and struct locals/fields with awaited arguments, nested awaits
// await F(await G()), awaits as the receiver, and a static field compound-assigned from an await.
using System;
using System.Threading.Tasks;

struct Vec
{
    public int X, Y;
    public Vec(int x, int y) { X = x; Y = y; }
    public Vec Add(int dx, int dy) => new Vec(X + dx, Y + dy);
    public void Move(int dx, int dy) { X += dx; Y += dy; }
    public override string ToString() => $"({X},{Y})";
}

sealed class Acc
{
    public int Total;
    public string Log = "";
    public Acc Add(string tag, int v, long w)
    {
        Total += v + (int)w;
        Log += tag;
        return this;
    }
}

static class Program
{
    static bool Suspend;
    static int Counter;
    static Vec StaticVec = new Vec(1, 1);

    static async Task<int> G(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<string> S(string v)
    {
        if (Suspend) await Task.Delay(1);
        return v;
    }

    static async Task<Acc> NewAcc()
    {
        if (Suspend) await Task.Yield();
        return new Acc();
    }

    static string Call(string a, int b, double c, string d) => $"{a}|{b}|{c}|{d}";

    static async Task<string> Arguments(int x)
    {
        return Call("a" + x, await G(x * 2), 1.5 * x, await S("d")) + "/" + Call(await S("e"), x, await G(3), "h");
    }

    static async Task<int> Nested(int x) => await G(await G(x) + await G(await G(1)));

    static async Task<string> Instance()
    {
        var acc = new Acc();
        acc.Add("a", await G(1), 2L).Add(await S("b"), 3, await G(4)).Add("c", await G(5), await G(6));
        var other = (await NewAcc()).Add(await S("x"), await G(10), 0);
        return $"{acc.Total} {acc.Log} {other.Total} {other.Log}";
    }

    static async Task<string> Structs()
    {
        var v = new Vec(1, 2);
        var w = v.Add(await G(10), await G(20));
        v.Move(await G(3), 4);
        StaticVec.Move(await G(5), await G(6));
        var u = new Vec(await G(7), 8).Add(1, await G(1));
        return $"{v} {w} {StaticVec} {u}";
    }

    static async Task<string> StaticField()
    {
        Counter = 10;
        Counter += await G(5);
        Counter *= await G(2);
        return Counter.ToString();
    }

    static async Task<string> Run()
    {
        return $"{await Arguments(4)} ; {await Nested(5)} ; {await Instance()} ; {await Structs()} ; {await StaticField()}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            StaticVec = new Vec(1, 1);
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Run());
        }
    }
}
