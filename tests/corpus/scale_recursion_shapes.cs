// Recursion the rewriter's call graph may not see as a cycle: through a delegate, through a non-async
// Task-returning helper, through an interface on a struct (constrained call), through a local function, and
// through a generic method; run on a thread with a fixed stack at depths classic survives.
using System;
using System.Threading;
using System.Threading.Tasks;

interface IStep { Task<long> Step(int n); }

struct StructStep : IStep
{
    public int Bias;
    public async Task<long> Step(int n)
    {
        if (n == 0) { if (Program.Suspend) await Task.Yield(); return Bias; }
        return n + await Program.ViaConstrained(this, n - 1);
    }
}

sealed class ClassStep : IStep
{
    public async Task<long> Step(int n)
    {
        if (n == 0) { if (Program.Suspend) await Task.Yield(); return 0; }
        IStep next = this;
        return n + await next.Step(n - 1);
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task<long> ViaConstrained<T>(T step, int n) where T : IStep => await step.Step(n);

    static Func<int, Task<long>>? s_self;

    static async Task<long> ViaDelegate(int n)
    {
        if (n == 0) { if (Suspend) await Task.Yield(); return 0; }
        return n + await s_self!(n - 1);
    }

    static Task<long> Helper(int n) => n % 2 == 0 ? ViaHelper(n) : ViaHelper(n);

    static async Task<long> ViaHelper(int n)
    {
        if (n == 0) { if (Suspend) await Task.Yield(); return 0; }
        return n + await Helper(n - 1);
    }

    static async Task<long> ViaLocalFunction(int depth)
    {
        return await Go(depth);
        async Task<long> Go(int n)
        {
            if (n == 0) { if (Suspend) await Task.Yield(); return 0; }
            return n + await Go(n - 1);
        }
    }

    static async Task<long> Generic<T>(T value, int n)
    {
        if (n == 0) { if (Suspend) await Task.Yield(); return value!.GetHashCode() * 0; }
        return n + await Generic(value, n - 1);
    }

    static async ValueTask<long> ViaValueTask(int n)
    {
        if (n == 0) { if (Suspend) await Task.Yield(); return 0; }
        return n + await ViaValueTask(n - 1);
    }

    static string OnThread(int stackKb, Func<Task<long>> work)
    {
        string result = "";
        var thread = new Thread(() =>
        {
            try { result = work().GetAwaiter().GetResult().ToString(); }
            catch (Exception e) { result = e.GetType().Name; }
        }, stackKb * 1024);
        thread.Start();
        thread.Join();
        return result;
    }

    static async Task Main()
    {
        s_self = ViaDelegate;
        const int depth = 3000, stack = 4096;
        var shapes = new (string Name, Func<int, Task<long>> Run)[]
        {
            ("delegate", n => ViaDelegate(n)),
            ("helper", n => ViaHelper(n)),
            ("struct", n => new StructStep { Bias = 1 }.Step(n)),
            ("class", n => new ClassStep().Step(n)),
            ("local", n => ViaLocalFunction(n)),
            ("generic", n => Generic("g", n)),
            ("valuetask", n => ViaValueTask(n).AsTask()),
        };
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var (name, run) in shapes)
            {
                Console.WriteLine($"{name}: {OnThread(stack, () => run(depth))}");
            }
        }
        await Task.CompletedTask;
    }
}
