using System;
using System.Threading.Tasks;
using H;

readonly record struct Money(decimal Amount);

sealed class AppNode : T3
{
    public override async Task<int> Count() { await Pause.Maybe(); return 7 + await base.Count(); }
    public override async Task<U> Convert<U>(U value, Func<U, U> f)
    {
        try { return await base.Convert(value, f); }
        finally { Console.WriteLine("  AppNode.Convert finally " + typeof(U).Name); }
    }
}

static class Program
{
    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Pause.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Node[] nodes = { new M1(), new M2(), new M3(), new T1(), new T2(), new T3(), new AppNode() };
            foreach (var n in nodes)
            {
                Console.WriteLine($"{n.GetType().Name}: {await n.Everything()}");
                Console.WriteLine($"  via Node: {await MidCalls.ViaNode(n)}");
                Console.WriteLine($"  app via Node: {await n.Tag()} {await n.Count()} {await n.Convert(new Money(2m), m => new Money(m.Amount * 3))}");
                if (n is M1 m1)
                    Console.WriteLine($"  via M1: {await MidCalls.ViaM1(m1)} / app {await m1.Tag()} {await m1.Count()}");
                if (n is M2 m2)
                    Console.WriteLine($"  via M2: {await MidCalls.ViaM2(m2)} / app {await m2.Tag()} {await m2.Describe(9)}");
                if (n is M3 m3)
                    Console.WriteLine($"  via M3: {await TopCalls.ViaM3(m3)} / app {await m3.Tag()} {await m3.Convert(1.5, d => d * 2)}");
                if (n is M4 m4)
                    Console.WriteLine($"  via M4: {await TopCalls.ViaM4(m4)} / app {await m4.Tag()}");
                if (n is T3 t3)
                    Console.WriteLine($"  via T3: {await t3.Tag()}");
                var log = "";
                await n.Run(s => log += s + ";");
                Console.WriteLine("  run: " + log);
            }
        }
    }
}
