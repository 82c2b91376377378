// sealed overrides and `new` slots: a `new virtual` method starting a second slot under the same
// name, a `new` non-virtual method hiding a virtual one, a sealed override, and calls through every
// static type, so that each call reaches the slot its static type names.
using System;
using System.Threading.Tasks;

class A
{
    public virtual async Task<string> Who(int n)
    {
        await Program.Pause();
        return $"A.Who({n})";
    }

    public virtual async Task<string> Greet()
    {
        await Program.Pause();
        return "A.Greet";
    }
}

class B : A
{
    public sealed override async Task<string> Who(int n)
    {
        var inner = await base.Who(n + 1);
        await Program.Pause();
        return $"B.Who sealed [{inner}]";
    }

    // A new slot: calls through A still reach A's slot (and its overrides), calls through B and below reach this one.
    public new virtual async Task<string> Greet()
    {
        await Program.Pause();
        return "B.Greet (new virtual) over " + await base.Greet();
    }
}

class C : B
{
    // Hides B.Who, which is sealed: only callers that see C call this.
    public new async Task<string> Who(int n)
    {
        await Program.Pause();
        return $"C.Who new [{await base.Who(n * 10)}]";
    }

    public override async Task<string> Greet()
    {
        var b = await base.Greet();
        await Program.Pause();
        return "C.Greet override of " + b;
    }
}

sealed class D : C
{
    public new async Task<string> Greet() => "D.Greet hides " + await base.Greet();
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> ViaA(A a) => await a.Who(1) + " | " + await a.Greet();
    static async Task<string> ViaB(B b) => await b.Who(2) + " | " + await b.Greet();
    static async Task<string> ViaC(C c) => await c.Who(3) + " | " + await c.Greet();

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var a in new A[] { new A(), new B(), new C(), new D() })
                Console.WriteLine($"{a.GetType().Name} via A: {await ViaA(a)}");
            foreach (var b in new B[] { new B(), new C(), new D() })
                Console.WriteLine($"{b.GetType().Name} via B: {await ViaB(b)}");
            foreach (var c in new C[] { new C(), new D() })
                Console.WriteLine($"{c.GetType().Name} via C: {await ViaC(c)}");
            var d = new D();
            Console.WriteLine($"D via D: {await d.Who(4)} | {await d.Greet()}");
        }
    }
}
