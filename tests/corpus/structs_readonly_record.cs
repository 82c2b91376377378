// Async methods on readonly structs, readonly members of ordinary structs, record structs and
// readonly record structs: they read fields before and after suspending, call each other, use
// with-expressions to build new values, and record value equality is checked on the results.
using System;
using System.Threading.Tasks;

readonly struct Money
{
    public readonly decimal Amount;
    public readonly string Currency;
    public Money(decimal amount, string currency) { Amount = amount; Currency = currency; }

    public async Task<Money> Convert(string to, decimal rate)
    {
        await Program.Pause();
        return new Money(Math.Round(Amount * rate, 2), to);
    }

    public async Task<string> Describe()
    {
        var eur = await Convert("EUR", 0.5m);
        await Program.Pause();
        return $"{Amount} {Currency} = {eur.Amount} {eur.Currency}";
    }
}

struct Gauge
{
    public int Level;
    public readonly async Task<string> Read()
    {
        await Program.Pause();
        return $"level {Level}";
    }
}

record struct Vector(int X, int Y)
{
    public async Task<Vector> Scale(int k)
    {
        await Program.Pause();
        X *= k;   // on the copy
        return this with { Y = Y * k };
    }

    public async Task<int> Length2() => await Dot(this);

    public readonly async Task<int> Dot(Vector other)
    {
        await Program.Pause();
        return X * other.X + Y * other.Y;
    }
}

readonly record struct Label(string Text, int Priority)
{
    public async Task<Label> Promote()
    {
        if (Priority > 1) await Program.Pause();
        return this with { Priority = Priority + 1 };
    }
}

record class Person(string Name)
{
    public virtual async Task<string> Hello()
    {
        await Program.Pause();
        return "hello " + Name;
    }
}

sealed record Employee(string Name, string Team) : Person(Name)
{
    public override async Task<string> Hello() => await base.Hello() + " from " + Team;
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
            Console.WriteLine(await new Money(10.5m, "USD").Describe());
            var g = new Gauge { Level = 3 };
            Console.WriteLine(await g.Read());
            var v = new Vector(2, 3);
            var scaled = await v.Scale(2);
            Console.WriteLine($"{v} scaled {scaled} len2={await scaled.Length2()} equal={scaled == new Vector(2, 6)}");
            var label = new Label("x", 1);
            var p1 = await label.Promote();
            var p2 = await p1.Promote();
            Console.WriteLine($"{label} {p1} {p2} {p2 == new Label("x", 3)}");
            Person e = new Employee("ann", "ops");
            Console.WriteLine($"{await e.Hello()} | {await new Person("bob").Hello()} | {e}");
        }
    }
}
