// Operators and conversions whose results are tasks (C# has no async operators, so they return the
// task of an async method): binary and unary operators returning Task<T>, a user-defined implicit
// conversion to Task<T>, true/false operators used by an async method, an extension GetAwaiter that
// makes a custom type awaitable by delegating to an async method, and awaiting operator results in
// expressions.
using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

readonly struct Amount
{
    public readonly int Cents;
    public Amount(int cents) => Cents = cents;

    public static Task<Amount> operator +(Amount a, Amount b) => AddSlowly(a, b);
    public static Task<Amount> operator -(Amount a) => NegateSlowly(a);
    public static bool operator true(Amount a) => a.Cents != 0;
    public static bool operator false(Amount a) => a.Cents == 0;
    public static implicit operator Task<Amount>(Amount a) => Echo(a);

    private static async Task<Amount> AddSlowly(Amount a, Amount b)
    {
        await Program.Pause();
        return new Amount(a.Cents + b.Cents);
    }

    private static async Task<Amount> NegateSlowly(Amount a)
    {
        await Program.Pause();
        return new Amount(-a.Cents);
    }

    private static async Task<Amount> Echo(Amount a)
    {
        await Program.Pause();
        return a;
    }

    public override string ToString() => $"{Cents}c";
}

sealed class Ticket
{
    public int Number;
}

static class TicketAwaiting
{
    public static TaskAwaiter<string> GetAwaiter(this Ticket ticket) => Redeem(ticket).GetAwaiter();

    private static async Task<string> Redeem(Ticket ticket)
    {
        await Program.Pause();
        return $"redeemed #{ticket.Number}";
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<Amount> Total(params Amount[] amounts)
    {
        var total = new Amount(0);
        foreach (var a in amounts)
            total = await (total + a);
        return total;
    }

    static async Task<string> Check(Amount a)
    {
        await Pause();
        if (a) return $"{a} is nonzero";
        return $"{a} is zero";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var x = new Amount(150);
            var y = new Amount(275);
            Console.WriteLine($"{await (x + y)} {await -x} {await (await -x + y)}");
            Task<Amount> converted = x;
            Console.WriteLine($"converted {await converted}");
            Console.WriteLine($"total {await Total(x, y, new Amount(-25))}");
            Console.WriteLine($"{await Check(x)}; {await Check(new Amount(0))}");
            Console.WriteLine(await new Ticket { Number = 7 });
        }
    }
}
