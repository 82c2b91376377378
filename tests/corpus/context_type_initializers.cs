// A static constructor is user code: the first read or write of a static field of its type runs
// it, inside whatever method touches the field. One that changes the culture or an AsyncLocal
// inside an async method whose body has no calls must not leak the change
// to the method's caller, as classic async puts both back when the method returns. Async2
// counted only calls as user code, gave such methods no context scope, and the change leaked.
// That goes for another instantiation of the method's own generic type. (The method's own type's
// field initializers are left out on purpose: docs/design.md, "Context edge cases".)
using System;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;

static class Precision
{
    public static readonly int Digits;
    static Precision()
    {
        CultureInfo.CurrentCulture = new CultureInfo("de-DE");
        Digits = 2;
    }
}

static class Tenant
{
    public static string Name = "";
    static Tenant() => Program.Current.Value = "changed by Tenant's constructor";
}

class Catalog<T>
{
    public static readonly string Name;

    static Catalog()
    {
        Name = typeof(T).Name;
        if (typeof(T) == typeof(int))
            Program.Current.Value = "changed by Catalog<int>'s constructor";
    }

    public static async Task<string> NameOfInts() => Catalog<int>.Name;
}

static class Program
{
    public static readonly AsyncLocal<string> Current = new();

    static async Task<int> DigitsAsync() => Precision.Digits;
    static async Task NameAsync(string name) => Tenant.Name = name;

    static async Task Main()
    {
        CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
        Current.Value = "caller";
        int digits = await DigitsAsync();
        Console.WriteLine($"digits {digits}: {Math.PI.ToString("F" + digits)}, culture '{CultureInfo.CurrentCulture.Name}'");
        await NameAsync("contoso");
        Console.WriteLine($"tenant {Tenant.Name}: {Current.Value}");
        Current.Value = "caller";
        Console.WriteLine($"catalog {await Catalog<string>.NameOfInts()}: {Current.Value}");
    }
}
