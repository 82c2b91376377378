// parameters of many types (including a struct, a nullable, an array, `in`-free value params and
// `this` of a class instance method) read and reassigned after awaits; parameters whose value is
// only needed before the first await; instance fields mutated across awaits.
using System;
using System.Threading.Tasks;

struct Money
{
    public decimal Amount;
    public string Currency;
    public Money(decimal amount, string currency) { Amount = amount; Currency = currency; }
    public override string ToString() => $"{Amount} {Currency}";
}

sealed class Account
{
    private readonly string owner;
    private decimal balance;
    public int Operations;

    public Account(string owner, decimal balance) { this.owner = owner; this.balance = balance; }

    public async Task<string> Transfer(Money money, int times, string? memo, int[] history, long stamp)
    {
        for (int k = 0; k < times; k++)
        {
            await Program.Tick();
            balance -= money.Amount;
            money.Amount += 1;
            history[k % history.Length] += k;
            Operations++;
        }
        memo ??= "none";
        await Program.Tick();
        memo += "/" + owner;
        stamp += await Program.Value(times);
        times = -times;
        return $"{owner} {balance} {money} {times} {memo} [{string.Join(",", history)}] {stamp} ops={Operations}";
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Tick()
    {
        if (Suspend) await Task.Yield();
    }

    public static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Delay(1);
        return v;
    }

    static async Task<string> Reassign(int a, string b, double c, DateTime d, int? e, (int, int) f)
    {
        a = await Value(a + 1);
        b = b + await Value(a);
        await Tick();
        c = c * a;
        d = d.AddDays(a);
        e = e.HasValue ? e + a : await Value(-1);
        f = (f.Item2, f.Item1 + await Value(100));
        return $"{a} {b} {c} {d:yyyy-MM-dd} {e} {f}";
    }

    static async Task<int> OnlyBefore(int x, int y)
    {
        int sum = x + y;
        await Tick();
        return sum * 2;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var account = new Account("ann", 100m);
            Console.WriteLine(await account.Transfer(new Money(5m, "EUR"), 3, null, new[] { 1, 2 }, 1000L));
            Console.WriteLine(await account.Transfer(new Money(1.5m, "USD"), 1, "memo", new[] { 7 }, 1L));
            Console.WriteLine(await Reassign(1, "b", 0.5, new DateTime(2024, 2, 28), 4, (1, 2)));
            Console.WriteLine(await Reassign(5, "z", 1.5, new DateTime(2024, 12, 30), null, (3, 4)));
            Console.WriteLine(await OnlyBefore(3, 4));
        }
    }
}
