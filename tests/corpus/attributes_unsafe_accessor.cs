// [UnsafeAccessor] extern methods used from async methods, before and after awaits: private fields
// (read, written through the returned ref, compound-assigned with an awaited value computed first),
// private constructors, private instance and static methods, and private async methods of another
// class (instance, static, generic owner) awaited through the accessor; a struct's private field
// through a ref receiver kept in a class.
using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

sealed class Vault
{
    private int _balance;
    private string _owner;
    private static int s_opened;

    private Vault(string owner, int balance)
    {
        _owner = owner;
        _balance = balance;
        s_opened++;
    }

    private string Describe(string prefix) => $"{prefix}{_owner}:{_balance}";

    private static string Stamp(int n) => $"#{n}/{s_opened}";

    private async Task<int> AddAsync(int amount)
    {
        await Program.Pause();
        _balance += amount;
        return _balance;
    }

    private static async ValueTask<string> EchoAsync(string s)
    {
        await Program.Pause();
        return s + s;
    }

    private async Task ThrowAsync(string message)
    {
        await Program.Pause();
        throw new InvalidOperationException(message + " " + _owner);
    }
}

sealed class Box<T>
{
    private T _value;
    public Box(T value) => _value = value;

    private async Task<T> SwapAsync(T next)
    {
        var old = _value;
        await Program.Pause();
        _value = next;
        return old;
    }
}

struct Point
{
    private int _x;
    public override string ToString() => $"P({_x})";
}

static class Accessors
{
    [UnsafeAccessor(UnsafeAccessorKind.Constructor)]
    public static extern Vault Create(string owner, int balance);

    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_balance")]
    public static extern ref int Balance(Vault v);

    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_owner")]
    public static extern ref string Owner(Vault v);

    [UnsafeAccessor(UnsafeAccessorKind.StaticField, Name = "s_opened")]
    public static extern ref int Opened(Vault? v);

    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "Describe")]
    public static extern string Describe(Vault v, string prefix);

    [UnsafeAccessor(UnsafeAccessorKind.StaticMethod, Name = "Stamp")]
    public static extern string Stamp(Vault? v, int n);

    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "AddAsync")]
    public static extern Task<int> AddAsync(Vault v, int amount);

    [UnsafeAccessor(UnsafeAccessorKind.StaticMethod, Name = "EchoAsync")]
    public static extern ValueTask<string> EchoAsync(Vault? v, string s);

    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "ThrowAsync")]
    public static extern Task ThrowAsync(Vault v, string message);

    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_x")]
    public static extern ref int X(ref Point p);
}

static class BoxAccessors<T>
{
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "SwapAsync")]
    public static extern Task<T> SwapAsync(Box<T> box, T next);

    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_value")]
    public static extern ref T Value(Box<T> box);
}

sealed class Holder
{
    public Point P;
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<int> Amount(int n)
    {
        await Pause();
        return n;
    }

    static async Task<string> Scenario(string owner)
    {
        var v = Accessors.Create(owner, 10);
        Accessors.Balance(v) += 5;
        await Pause();
        int added = await Amount(7);
        Accessors.Balance(v) += added;
        Accessors.Owner(v) = Accessors.Owner(v).ToUpperInvariant();
        string first = Accessors.Describe(v, "v=");
        int afterAdd = await Accessors.AddAsync(v, await Amount(3));
        string echo = await Accessors.EchoAsync(null, Accessors.Stamp(null, await Amount(afterAdd)));
        string thrown;
        try
        {
            await Accessors.ThrowAsync(v, "boom");
            thrown = "no";
        }
        catch (InvalidOperationException e)
        {
            thrown = e.Message;
        }
        var box = new Box<string>("a");
        string old = await BoxAccessors<string>.SwapAsync(box, "b");
        var ibox = new Box<int>(1);
        int iold = await BoxAccessors<int>.SwapAsync(ibox, await Amount(2));
        BoxAccessors<int>.Value(ibox) *= 10;
        var holder = new Holder();
        int fortyTwo = await Amount(42);
        Accessors.X(ref holder.P) = fortyTwo;
        await Pause();
        Accessors.X(ref holder.P)++;
        return $"{first} {afterAdd} {echo} [{thrown}] {old}->{BoxAccessors<string>.Value(box)} {iold}->{BoxAccessors<int>.Value(ibox)} {holder.P} opened={Accessors.Opened(null)} {Accessors.Describe(v, "end=")}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Scenario("ann"));
            Console.WriteLine(await Scenario("bob"));
        }
    }
}
