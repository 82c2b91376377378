// Real-world: a bank-transfer simulation. Accounts guarded by per-account async locks
// (SemaphoreSlim taken in id order, released by an IAsyncDisposable *struct* through await using),
// a class IAsyncDisposable audit scope, records and a switch expression whose arms await,
// tuple deconstruction and swaps across awaits, checked decimal/long arithmetic with overflow,
// foreach over List<T> and Dictionary<K,V> (struct enumerators alive across awaits), compound
// assignments to array elements and struct fields in arrays with awaited right-hand sides,
// object/collection initializers with awaited values, Interlocked counters, and Task.WhenAll over
// concurrent transfers whose final balances are deterministic.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

sealed record Account(int Id, string Owner)
{
    public decimal Balance;
    public readonly SemaphoreSlim Gate = new(1, 1);
}

abstract record TransferResult;
sealed record Completed(decimal From, decimal To) : TransferResult;
sealed record Rejected(string Reason) : TransferResult;

readonly struct Held : IAsyncDisposable
{
    private readonly SemaphoreSlim first, second;
    public Held(SemaphoreSlim first, SemaphoreSlim second) { this.first = first; this.second = second; }
    public static async ValueTask<Held> Acquire(Account a, Account b)
    {
        var (lo, hi) = a.Id < b.Id ? (a, b) : (b, a);
        await lo.Gate.WaitAsync();
        if (lo != hi) await hi.Gate.WaitAsync();
        return new Held(lo.Gate, lo == hi ? null! : hi.Gate);
    }
    public ValueTask DisposeAsync()
    {
        second?.Release();
        first.Release();
        return ValueTask.CompletedTask;
    }
}

sealed class AuditScope(List<string> journal, string name) : IAsyncDisposable
{
    public string? Outcome;
    public async ValueTask DisposeAsync()
    {
        await Bank.Pause();
        lock (journal) journal.Add($"{name}: {Outcome ?? "aborted"}");
    }
}

struct Stats { public long Count; public decimal Volume; }

static class Bank
{
    public static bool Suspend;
    public static int Transfers, Failures;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<decimal> Fee(decimal amount)
    {
        await Pause();
        return amount switch { < 100 => 0m, < 1000 => 1m, _ => 5m };
    }

    public static async Task<TransferResult> Transfer(Account from, Account to, decimal amount, List<string> journal)
    {
        await using var audit = new AuditScope(journal, $"{from.Owner}->{to.Owner} {amount}");
        await using (await Held.Acquire(from, to))
        {
            TransferResult result = (amount, from == to) switch
            {
                (_, true) => new Rejected("same account"),
                ( <= 0, _) => new Rejected("non-positive"),
                _ when from.Balance < amount + await Fee(amount) => new Rejected($"insufficient {from.Balance}"),
                _ => await Apply(from, to, amount),
            };
            audit.Outcome = result is Completed ? "ok" : "rejected";
            if (result is Rejected) Interlocked.Increment(ref Failures);
            else Interlocked.Increment(ref Transfers);
            return result;
        }
    }

    static async Task<TransferResult> Apply(Account from, Account to, decimal amount)
    {
        decimal fee = await Fee(amount);
        from.Balance -= checked(amount + fee);
        await Pause();
        to.Balance += amount;
        return new Completed(from.Balance, to.Balance);
    }

    public static async Task<long> Interest(long cents, int years)
    {
        for (int y = 0; y < years; y++)
        {
            await Pause();
            cents = checked(cents + cents / 10);
        }
        return cents;
    }
}

static class Program
{
    static async Task<T> Later<T>(T value)
    {
        await Bank.Pause();
        return value;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Bank.Suspend = suspend;
            Bank.Transfers = Bank.Failures = 0;
            Console.WriteLine($"-- suspend={suspend}");
            var accounts = new List<Account>
            {
                new(1, "ann") { Balance = await Later(1000m) },
                new(2, "bob") { Balance = 50m },
                new(3, "cat") { Balance = await Later(5000m) },
            };
            var byOwner = new Dictionary<string, Account>();
            foreach (var a in accounts) byOwner[a.Owner] = await Later(a);
            var journal = new List<string>();

            foreach (var (from, to, amount) in new[] { ("ann", "bob", 200m), ("bob", "ann", 500m), ("cat", "cat", 1m), ("bob", "cat", -3m), ("cat", "ann", 1500m) })
            {
                var result = await Bank.Transfer(byOwner[from], byOwner[to], amount, journal);
                Console.WriteLine($"{from}->{to} {amount}: {result switch { Completed(var f, var t) => $"done {f}/{t}", Rejected r => r.Reason, _ => "?" }}");
            }

            var tasks = new List<Task<TransferResult>>();
            for (int i = 0; i < 20; i++)
            {
                var (a, b) = (accounts[i % 3], accounts[(i + 1) % 3]);
                if (i % 2 == 0) (a, b) = (b, a);
                tasks.Add(Task.Run(() => Bank.Transfer(a, b, 10m, journal)));
            }
            var results = await Task.WhenAll(tasks);
            Console.WriteLine($"concurrent: {results.Count(r => r is Completed)} completed, total {accounts.Sum(a => a.Balance)}");

            foreach (var (owner, account) in byOwner)
                Console.WriteLine($"  {owner}: {account.Balance} (rounded {await Later(Math.Round(account.Balance, 0))})");

            var totals = new decimal[3];
            var stats = new Stats[2];
            foreach (var account in accounts)
            {
                totals[account.Id - 1] += await Later(account.Balance);
                stats[account.Balance > 1000 ? 1 : 0].Count += await Later(1L);
                stats[account.Balance > 1000 ? 1 : 0].Volume += account.Balance;
            }
            Console.WriteLine($"totals [{string.Join(", ", totals)}] small {stats[0].Count}/{stats[0].Volume} large {stats[1].Count}/{stats[1].Volume}");

            var (lo, hi) = (await Later(1), await Later(2));
            (lo, hi) = (await Later(hi), lo);
            Console.WriteLine($"swap {lo},{hi}; interest {await Bank.Interest(10_000, 5)}");
            try
            {
                Console.WriteLine(await Bank.Interest(long.MaxValue / 2, 10));
            }
            catch (OverflowException e)
            {
                Console.WriteLine($"interest overflow: {e.GetType().Name}");
            }
            Console.WriteLine($"transfers {Bank.Transfers}, failures {Bank.Failures}, journal {journal.Count}");
            foreach (var line in journal.Take(5)) Console.WriteLine("  " + line);
        }
    }
}
