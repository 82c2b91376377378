// `this` captured by async lambdas and local functions in instance methods: lambdas reading and
// writing fields after suspending, a lambda capturing both this and locals (one display class
// holding this), a lambda passed to another object that calls back into the owner, a struct's
// instance method whose lambda captures a copy of the struct, and a derived class whose lambda calls
// base.M().
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

class Account
{
    protected int Balance;
    private readonly List<string> _history = new();
    public string Name = "";

    public virtual async Task<int> Deposit(int amount)
    {
        await Program.Pause();
        Balance += amount;
        return Balance;
    }

    public async Task<string> Batch(int[] amounts)
    {
        int applied = 0;
        Func<int, Task> apply = async amount =>
        {
            await Program.Pause();
            _history.Add($"{Name}+{amount}");
            Balance += amount;   // through the captured this
            applied++;           // through the display class
        };
        foreach (var a in amounts)
            await apply(a);
        return $"{Name}: balance={Balance} applied={applied} history={string.Join(" ", _history)}";
    }

    public async Task<string> Audit(Auditor auditor) => await auditor.Check(async () =>
    {
        await Program.Pause();
        return Balance;
    });

    public async Task<int> LocalFunctions(int times)
    {
        async Task<int> Once(int k)
        {
            await Program.Pause();
            Balance += k;
            return Balance;
        }
        int last = 0;
        for (int i = 1; i <= times; i++)
            last = await Once(i);
        return last;
    }
}

sealed class Savings : Account
{
    public override async Task<int> Deposit(int amount)
    {
        Func<Task<int>> viaBase = async () => await base.Deposit(amount * 2);
        int after = await viaBase();
        await Program.Pause();
        return after + 1;
    }
}

sealed class Auditor
{
    public async Task<string> Check(Func<Task<int>> read)
    {
        int a = await read();
        await Program.Pause();
        int b = await read();
        return $"audit {a}=={b}";
    }
}

struct Meter
{
    public int Reading;
    public async Task<string> Sample(int times)
    {
        var self = this; // a lambda in a struct cannot capture this; it captures a copy
        Func<Task<int>> read = async () => { await Program.Pause(); self.Reading++; return self.Reading; };
        int last = 0;
        for (int i = 0; i < times; i++)
            last = await read();
        return $"meter {last}, original copy {Reading}";
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
            var acc = new Account { Name = "cur" };
            Console.WriteLine(await acc.Batch(new[] { 5, 10 }));
            Console.WriteLine(await acc.Audit(new Auditor()));
            Console.WriteLine(await acc.LocalFunctions(3));
            Account sav = new Savings { Name = "sav" };
            Console.WriteLine(await sav.Deposit(7));
            Console.WriteLine(await sav.Batch(new[] { 1 }));
            var m = new Meter { Reading = 10 };
            Console.WriteLine(await m.Sample(3));
            Console.WriteLine($"after: {m.Reading}");
        }
    }
}
