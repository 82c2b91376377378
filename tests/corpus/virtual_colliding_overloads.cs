// Generic bases whose overloads M(T) and M(int) collide once T is int: an intermediate generic class
// overrides one of them, and a leaf closing T = int overrides M(int). Which slot the leaf takes is
// the CLR's choice (it depends on the order the base declares the overloads), not the nearest
// declaration; mixed async (rewritten) and plain Task-returning methods. Also a class above the
// colliding base declaring M(int), and overloads that differ in their task type only (Task and
// ValueTask), whose entries would have one signature.
using System;
using System.Threading.Tasks;

// Order T, int; mid overrides M(U)
class B1<T>
{
    public virtual async Task<string> M(T x) { await Program.Pause(); return "B1.M(T)"; }
    public virtual async Task<string> M(int x) { await Program.Pause(); return "B1.M(int)"; }
}
class D1<U> : B1<U> { public override async Task<string> M(U x) { await Program.Pause(); return "D1.M(U)"; } }
class E1a : D1<int> { public override async Task<string> M(int x) { await Program.Pause(); return "E1a.M(async)"; } }
class E1p : D1<int> { public override Task<string> M(int x) => Task.FromResult("E1p.M(plain)"); }

// Order int, T; mid overrides M(U)
class B2<T>
{
    public virtual async Task<string> M(int x) { await Program.Pause(); return "B2.M(int)"; }
    public virtual async Task<string> M(T x) { await Program.Pause(); return "B2.M(T)"; }
}
class D2<U> : B2<U> { public override async Task<string> M(U x) { await Program.Pause(); return "D2.M(U)"; } }
class E2a : D2<int> { public override async Task<string> M(int x) { await Program.Pause(); return "E2a.M(async)"; } }
class E2p : D2<int> { public override Task<string> M(int x) => Task.FromResult("E2p.M(plain)"); }

// Order int, T; mid overrides M(int)
class B3<T>
{
    public virtual async Task<string> M(int x) { await Program.Pause(); return "B3.M(int)"; }
    public virtual async Task<string> M(T x) { await Program.Pause(); return "B3.M(T)"; }
}
class D3<U> : B3<U> { public override async Task<string> M(int x) { await Program.Pause(); return "D3.M(int)"; } }
class E3a : D3<int> { public override async Task<string> M(int x) { await Program.Pause(); return "E3a.M(async)"; } }
class E3p : D3<int> { public override Task<string> M(int x) => Task.FromResult("E3p.M(plain)"); }

// Order T, int; mid overrides M(int) (plain)
class B4<T>
{
    public virtual async Task<string> M(T x) { await Program.Pause(); return "B4.M(T)"; }
    public virtual async Task<string> M(int x) { await Program.Pause(); return "B4.M(int)"; }
}
class D4<U> : B4<U> { public override Task<string> M(int x) => Task.FromResult("D4.M(int plain)"); }
class E4a : D4<int> { public override async Task<string> M(int x) { await Program.Pause(); return "E4a.M(async)"; } }

// A class above the colliding base declares M(int), which the base overrides.
class Top5
{
    public virtual async Task<string> M(int x) { await Program.Pause(); return "Top5.M(int)"; }
}
class B5<T> : Top5
{
    public override async Task<string> M(int x) { await Program.Pause(); return "B5.M(int)"; }
    public virtual async Task<string> M(T x) { await Program.Pause(); return "B5.M(T)"; }
}
class D5<U> : B5<U> { public override async Task<string> M(U x) { await Program.Pause(); return "D5.M(U)"; } }
class E5 : D5<int> { public override async Task<string> M(int x) { await Program.Pause(); return "E5.M"; } }

// The overloads differ in their task type: the originals do not collide, their entries would.
class B6<T>
{
    public virtual async Task<string> M(T x) { await Program.Pause(); return "B6.M(T)"; }
    public virtual async ValueTask<string> M(int x) { await Program.Pause(); return "B6.M(int)"; }
}
class D6<U> : B6<U> { public override async Task<string> M(U x) { await Program.Pause(); return "D6.M(U)"; } }

static class Program
{
    public static bool Suspend;
    public static async Task Pause() { if (Suspend) await Task.Yield(); }

    static async Task<string> T1<T>(B1<T> b, T x) => await b.M(x);
    static async Task<string> I1<T>(B1<T> b) => await b.M(7);
    static async Task<string> T2<T>(B2<T> b, T x) => await b.M(x);
    static async Task<string> I2<T>(B2<T> b) => await b.M(7);
    static async Task<string> T3<T>(B3<T> b, T x) => await b.M(x);
    static async Task<string> I3<T>(B3<T> b) => await b.M(7);
    static async Task<string> T4<T>(B4<T> b, T x) => await b.M(x);
    static async Task<string> I4<T>(B4<T> b) => await b.M(7);
    static Task<string> SyncT1<T>(B1<T> b, T x) => b.M(x);
    static async Task<string> T5<T>(B5<T> b, T x) => await b.M(x);
    static async Task<string> Top(Top5 t) => await t.M(7);
    static async Task<string> T6<T>(B6<T> b, T x) => await b.M(x);
    static async Task<string> I6<T>(B6<T> b) => await b.M(7);

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var b in new B1<int>[] { new D1<int>(), new E1a(), new E1p() })
                Console.WriteLine($"{b.GetType().Name}: T={await T1(b, 1)} int={await I1(b)} syncT={await SyncT1(b, 1)}");
            foreach (var b in new B2<int>[] { new D2<int>(), new E2a(), new E2p() })
                Console.WriteLine($"{b.GetType().Name}: T={await T2(b, 1)} int={await I2(b)}");
            foreach (var b in new B3<int>[] { new D3<int>(), new E3a(), new E3p() })
                Console.WriteLine($"{b.GetType().Name}: T={await T3(b, 1)} int={await I3(b)}");
            foreach (var b in new B4<int>[] { new D4<int>(), new E4a() })
                Console.WriteLine($"{b.GetType().Name}: T={await T4(b, 1)} int={await I4(b)}");
            Console.WriteLine($"E1a direct: {await new E1a().M(3)} | E3a direct: {await new E3a().M(3)}");
            foreach (var t in new Top5[] { new Top5(), new B5<int>(), new D5<string>(), new D5<int>(), new E5() })
                Console.WriteLine($"{t.GetType().Name}: top={await Top(t)}" + (t is B5<int> b5 ? $" T={await T5(b5, 1)}" : ""));
            foreach (var b in new B6<int>[] { new B6<int>(), new D6<int>() })
                Console.WriteLine($"{b.GetType().Name}: T={await T6(b, 1)} int={await I6(b)}");
        }
    }
}
