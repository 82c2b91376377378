// Sync over async inside type initializers and Lazy<T> factories: the awaited method resumes on a pool
// thread while the initializing thread blocks; classic async only needs the state machine's own types there.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    public static bool Suspend;
    public static Task Pending() => Suspend ? Task.Delay(5) : Task.CompletedTask;
    public static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Run(suspend);
        }
    }

    static void Run(bool suspend)
    {
        if (!suspend)
        {
            Console.WriteLine(A1.Value);
            Console.WriteLine(G1<int>.Value);
            Console.WriteLine(G1<string>.Value);
            Console.WriteLine(S1.Value);
            Console.WriteLine(I1.Instance.Value);
            Console.WriteLine(L1.Value);
            Console.WriteLine(Nested1.Value);
        }
        else
        {
            Console.WriteLine(A2.Value);
            Console.WriteLine(G2<int>.Value);
            Console.WriteLine(G2<string>.Value);
            Console.WriteLine(S2.Value);
            Console.WriteLine(I2.Instance.Value);
            Console.WriteLine(L2.Value);
            Console.WriteLine(Nested2.Value);
            Console.WriteLine(LazyHolder.Lazy.Value);
            Console.WriteLine(LazyHolder.Lazy2.Value);
        }
    }
}

static class A1
{
    public static readonly string Value;
    static A1() { Value = "A1 " + Load(1).GetAwaiter().GetResult(); }
    static async Task<int> Load(int x) { await Program.Pending(); int y = await Twice(x); return y; }
    static async Task<int> Twice(int x) { await Program.Pending(); return x * 2; }
}
static class A2
{
    public static readonly string Value;
    static A2()
    {
        var t = Load(1);
        Value = "A2 " + (t.Wait(TimeSpan.FromMilliseconds(1000)) ? t.Result.ToString() : "timeout");
    }
    static async Task<int> Load(int x) { await Program.Pending(); int y = await Twice(x); await Task.Yield(); return y + await Local(); async Task<int> Local() { await Program.Pending(); return 1; } }
    static async Task<int> Twice(int x) { await Program.Pending(); return x * 2; }
}

class G1<T>
{
    public static readonly string Value;
    static G1() { Value = $"G1<{typeof(T).Name}> " + Load(default!).Result; }
    static async Task<string> Load(T x) { await Program.Pending(); return await Describe(x); }
    static async Task<string> Describe(T x) { await Program.Pending(); return x?.ToString() ?? "null"; }
}
class G2<T>
{
    public static readonly string Value;
    static G2()
    {
        var t = Load(default!);
        Value = $"G2<{typeof(T).Name}> " + (t.Wait(1000) ? t.Result : "timeout");
    }
    static async Task<string> Load(T x) { await Program.Pending(); return await Describe(x); }
    static async Task<string> Describe(T x) { await Program.Pending(); await Task.Yield(); return x?.ToString() ?? "null"; }
}

struct S1
{
    public static readonly string Value;
    static S1() { Value = "S1 " + new S1().Load().Result; }
    int _n;
    async Task<int> Load() { _n = 3; await Program.Pending(); return _n + await Other(); }
    static async Task<int> Other() { await Program.Pending(); return 4; }
}
struct S2
{
    public static readonly string Value;
    static S2() { var t = new S2().Load(); Value = "S2 " + (t.Wait(1000) ? t.Result.ToString() : "timeout"); }
    int _n;
    async Task<int> Load() { _n = 3; await Program.Pending(); await Task.Yield(); return _n + await Other(); }
    static async Task<int> Other() { await Program.Pending(); return 4; }
}

class I1
{
    public static readonly I1 Instance = new();
    public readonly string Value;
    static I1() { }
    I1() { Value = "I1 " + Init().Result; }
    async Task<int> Init() { await Program.Pending(); return await Step(2) + await Step(3); }
    async Task<int> Step(int i) { await Program.Pending(); return i; }
}
class I2
{
    public static readonly I2 Instance = new();
    public readonly string Value;
    static I2() { }
    I2() { var t = Init(); Value = "I2 " + (t.Wait(1000) ? t.Result.ToString() : "timeout"); }
    async Task<int> Init() { await Program.Pending(); await Task.Yield(); return await Step(2) + await Step(3); }
    async Task<int> Step(int i) { await Program.Pending(); return i; }
}

static class L1
{
    public static readonly string Value;
    static L1() { Value = "L1 " + Task.Run(async () => { await Program.Pending(); return await L1Helper.Inner(); }).Result; }
}
static class L1Helper { public static async Task<int> Inner() { await Program.Pending(); return 11; } }
static class L2
{
    public static readonly string Value;
    static L2()
    {
        int captured = 5;
        var t = Task.Run(async () => { await Program.Pending(); await Task.Yield(); return captured + await Inner(); });
        Value = "L2 " + (t.Wait(1000) ? t.Result.ToString() : "timeout");
    }
    static async Task<int> Inner() { await Program.Pending(); return 11; }
}

static class Nested1
{
    public static readonly string Value;
    static Nested1() { Value = "Nested1 " + Holder.Get().Result; }
    static class Holder { public static async Task<int> Get() { await Program.Pending(); return 21; } }
}
static class Nested2
{
    public static readonly string Value;
    static Nested2() { var t = Holder.Get(); Value = "Nested2 " + (t.Wait(1000) ? t.Result.ToString() : "timeout"); }
    static class Holder { public static async Task<int> Get() { await Program.Pending(); await Task.Yield(); return 21 + await Helper.X(); } }
    static class Helper { static Helper() { } public static async Task<int> X() { await Program.Pending(); return 1; } }
}

static class LazyHolder
{
    public static readonly Lazy<string> Lazy = new(() => "Lazy " + Compute().GetAwaiter().GetResult(), LazyThreadSafetyMode.ExecutionAndPublication);
    public static readonly Lazy<Task<int>> Lazy2Task = new(() => Compute());
    public static readonly Lazy<string> Lazy2 = new(() => "Lazy2 " + Lazy2Task.Value.Result + " " + Lazy2Task.Value.Result);
    static async Task<int> Compute() { await Program.Pending(); await Task.Yield(); return 42; }
}
