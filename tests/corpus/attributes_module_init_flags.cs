// A [ModuleInitializer] that starts async work (stored in a static Task, awaited later by Main, and
// one run to completion synchronously inside the initializer), MethodInfo.MethodImplementationFlags
// and GetMethodImplementationFlags of async methods carrying NoInlining, NoOptimization,
// AggressiveOptimization (what test frameworks and profilers read), default parameter values read
// by reflection for DateTime ([DateTimeConstant]), decimal, enum and nullable struct parameters, and
// calls that use those defaults.
using System;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading.Tasks;

enum Level { Low = 1, High = 5 }

static class Init
{
    public static Task<string>? Warmup;
    public static string Sync = "";
    public static int Order;
    public static readonly TaskCompletionSource Gate = new(TaskCreationOptions.RunContinuationsAsynchronously);

    [ModuleInitializer]
    internal static void Start()
    {
        Order = 1;
        Warmup = Worker.WarmupAsync("module");
        Sync = Worker.QuickAsync(3).GetAwaiter().GetResult();
        Order = 2;
    }
}

static class Worker
{
    public static async Task<string> WarmupAsync(string who)
    {
        int order = Init.Order;
        await Init.Gate.Task;
        return $"warm {who} started at order {order}, finished at {Init.Order}";
    }

    public static async Task<string> QuickAsync(int n)
    {
        await Task.CompletedTask;
        return $"quick {n} order {Init.Order}";
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<int> NoInline(int x)
    {
        await Program.Pause();
        return x + 1;
    }

    [MethodImpl(MethodImplOptions.NoOptimization | MethodImplOptions.NoInlining)]
    public static async Task<int> NoOpt(int x)
    {
        int y = x;
        await Program.Pause();
        return y * 2;
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static async Task<long> Hot(int n)
    {
        long sum = 0;
        for (int i = 0; i < n; i++)
        {
            if (i % 50 == 0) await Program.Pause();
            sum += i;
        }
        return sum;
    }

    public static async Task<string> Defaults(
        [Optional, DateTimeConstant(630822816000000000)] DateTime when,
        decimal rate = 1.25m,
        Level level = Level.High,
        Level? maybe = null,
        int? count = 4,
        TimeSpan span = default,
        string text = "t")
    {
        await Program.Pause();
        return $"{when:yyyy-MM-dd} {rate} {level} {maybe?.ToString() ?? "null"} {count} {span} {text}";
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static string Flags(string name)
    {
        var m = typeof(Worker).GetMethod(name)!;
        var flags = m.MethodImplementationFlags & ~(MethodImplAttributes)0x2000;
        return $"{name}: {flags} / {m.GetMethodImplementationFlags() & ~(MethodImplAttributes)0x2000}";
    }

    static async Task Main()
    {
        Console.WriteLine(Init.Sync);
        Init.Order = 3;
        Init.Gate.SetResult();
        Console.WriteLine(await Init.Warmup!);
        foreach (var name in new[] { "NoInline", "NoOpt", "Hot", "Defaults", "QuickAsync" })
            Console.WriteLine(Flags(name));
        foreach (var p in typeof(Worker).GetMethod("Defaults")!.GetParameters())
            Console.WriteLine($"  {p.Name}: optional={p.IsOptional} has={p.HasDefaultValue} default={(p.DefaultValue is DateTime d ? d.ToString("yyyy-MM-dd") : p.DefaultValue ?? "null")} raw={p.RawDefaultValue?.GetType().Name ?? "null"}");
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Worker.NoInline(1) + await Worker.NoOpt(2) + await Worker.Hot(200));
            Console.WriteLine(await Worker.Defaults());
            Console.WriteLine(await Worker.Defaults(new DateTime(2024, 2, 29), level: Level.Low, maybe: Level.High, count: null));
            var m = typeof(Worker).GetMethod("Defaults")!;
            var args = m.GetParameters().Select(p => Type.Missing).ToArray();
            Console.WriteLine(await (Task<string>)m.Invoke(null, BindingFlags.OptionalParamBinding, null, args, null)!);
            dynamic w = typeof(Worker);
            Console.WriteLine(await (Task<int>)typeof(Worker).GetMethod("NoOpt")!.Invoke(null, new object[] { 21 })!);
        }
    }
}
