// Rewritten async methods and lambdas reached indirectly: async lambdas converted to Func<Task>,
// Func<ValueTask<T>> and natural-typed delegates, with attributes and the static modifier; method
// groups of generic and struct instance methods; multicast events whose handlers are async (only the
// last task is returned, GetInvocationList awaits each); Delegate.DynamicInvoke and
// MethodInfo.Invoke of async methods (static, instance, generic via MakeGenericMethod, on a boxed
// struct, through an interface method, with Type.Missing for an optional parameter and a params
// array), open-instance and closed-static delegates from Delegate.CreateDelegate, and compiled
// expression trees calling async methods. An async method that throws before awaiting returns a
// faulted task through every path (no TargetInvocationException), while a non-async Task-returning
// method that throws is wrapped in TargetInvocationException (or not, with DoNotWrapExceptions);
// wrong argument types give ArgumentException before the method runs.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Linq.Expressions;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

interface IGreeter { Task<string> Greet(string name); }

sealed class Greeter(string greeting) : IGreeter
{
    public async Task<string> Greet(string name) { await Program.Tick(); return $"{greeting}, {name}"; }
    public async Task<string> Many(string sep, params int[] values) { await Program.Tick(); return string.Join(sep, values); }
    public async Task<int> Optional(int a, int b = 40) { await Program.Tick(); return a + b; }
    public static async Task<string> Tagged(string tag, int n) { await Program.Tick(); return $"{tag}#{n}"; }
}

struct Accumulator
{
    public int Total;
    public async Task<int> AddAsync(int x) { Total += x; await Program.Tick(); Total += x; return Total; }
}

sealed class Publisher
{
    public event Func<string, Task<int>>? Published;
    public Task<int>? Raise(string msg) => Published?.Invoke(msg);
    public async Task<string> RaiseAll(string msg)
    {
        var results = new List<int>();
        if (Published is { } handlers)
            foreach (Func<string, Task<int>> h in handlers.GetInvocationList())
                results.Add(await h(msg));
        return string.Join(",", results);
    }
}

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();

    // While Invoke reads the status of the task a call returned, Tick waits on this gate rather
    // than Task.Yield: a pool thread could otherwise complete the task before the status is read.
    static TaskCompletionSource? s_statusGate;

    public static async Task Tick()
    {
        if (!s_suspend) return;
        if (s_statusGate is { } gate) await gate.Task;
        else await Task.Yield();
    }

    static void ReleaseStatusGate() => Interlocked.Exchange(ref s_statusGate, null)?.SetResult();

    static async Task<T> Echo<T>(T value) { await Tick(); return value; }

    static async Task<int> FailsEarly(int x)
    {
        if (x > 0) throw new InvalidOperationException($"early {x}");
        await Tick();
        return x;
    }

    static async Task<int> FailsLate(int x)
    {
        await Tick();
        throw new InvalidOperationException($"late {x}");
    }

    static Task<int> NotAsyncThrows(int x) => throw new NotSupportedException($"sync {x}");

    static async Task<string> Show(object? result)
    {
        if (result is not Task task) return $"returned {result?.GetType().Name ?? "null"}";
        string status = task.IsCompleted ? task.Status.ToString() : "pending";
        ReleaseStatusGate();
        try
        {
            await task;
            object? value = task.GetType().GetProperty("Result")?.GetValue(task);
            return $"task {status} -> {value}";
        }
        catch (Exception e) { return $"task {status} -> {e.GetType().Name}: {e.Message}"; }
    }

    static async Task<string> Invoke(Func<object?> call)
    {
        s_statusGate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        try { return await Show(call()); }
        catch (Exception e) { ReleaseStatusGate(); return $"threw {e.GetType().Name}: {e.Message}" + (e.InnerException is { } inner ? $" / inner {inner.GetType().Name}: {inner.Message}" : ""); }
    }

    static async Task<string> Lambdas()
    {
        var lines = new List<string>();
        int counter = 0;
        Func<Task> plain = async () => { await Tick(); counter++; };
        Func<ValueTask<int>> vt = async () => { await Tick(); return ++counter * 10; };
        var natural = async (int a, string b) => { await Tick(); return $"{b}{a + counter}"; };
        Func<int, Task<int>> statik = static async x => { await Tick(); return x * x; };
        Func<Task<string>> attributed = [MethodImpl(MethodImplOptions.NoInlining)] async () => await Echo("attr");
        Func<string, Task<string>> group = Echo;
        Func<Task<int>> generic = () => Echo(7);
        await plain(); await plain();
        lines.Add($"{counter} {await vt()} {await natural(1, "n")} {await statik(9)} {await attributed()} {await group("g")} {await generic()} {natural.GetType().Name}");

        var acc = new Accumulator();
        Func<int, Task<int>> boxedGroup = acc.AddAsync; // the struct is boxed once, the delegate keeps the box
        int r1 = await boxedGroup(1), r2 = await boxedGroup(2);
        int r3 = await acc.AddAsync(5);
        lines.Add($"struct method group {r1} {r2}, local struct {r3} total={acc.Total}");

        var pub = new Publisher();
        Func<string, Task<int>> h1 = async m => { s_log.Add($"h1 {m}"); await Tick(); return 1; };
        Func<string, Task<int>> h2 = async m => { s_log.Add($"h2 {m}"); await Tick(); return 2; };
        pub.Published += h1; pub.Published += h2; pub.Published += h1;
        int last = await pub.Raise("a")!;
        string all = await pub.RaiseAll("b");
        pub.Published -= h1;
        string afterRemove = await pub.RaiseAll("c");
        lines.Add($"event last={last} all={all} afterRemove={afterRemove} log={string.Join(";", s_log)}");
        s_log.Clear();
        return string.Join("\n  ", lines);
    }

    static async Task<string> Reflection()
    {
        var lines = new List<string>();
        var flags = BindingFlags.NonPublic | BindingFlags.Public | BindingFlags.Static | BindingFlags.Instance;
        var greeter = new Greeter("Hi");
        Func<string, Task<string>> greet = greeter.Greet;
        Func<int, Task<int>> early = FailsEarly, late = FailsLate, sync = NotAsyncThrows;
        lines.Add("DynamicInvoke greet: " + await Invoke(() => greet.DynamicInvoke("dyn")));
        lines.Add("DynamicInvoke early: " + await Invoke(() => early.DynamicInvoke(1)));
        lines.Add("DynamicInvoke late: " + await Invoke(() => late.DynamicInvoke(2)));
        lines.Add("DynamicInvoke sync: " + await Invoke(() => sync.DynamicInvoke(3)));
        lines.Add("DynamicInvoke bad arg: " + await Invoke(() => early.DynamicInvoke("x")));
        lines.Add("DynamicInvoke lambda: " + await Invoke(() => ((Func<int, Task<int>>)(async x => { await Tick(); return -x; })).DynamicInvoke(4)));

        var type = typeof(Program);
        lines.Add("Invoke early: " + await Invoke(() => type.GetMethod(nameof(FailsEarly), flags)!.Invoke(null, [5])));
        lines.Add("Invoke sync: " + await Invoke(() => type.GetMethod(nameof(NotAsyncThrows), flags)!.Invoke(null, [6])));
        lines.Add("Invoke sync unwrapped: " + await Invoke(() => type.GetMethod(nameof(NotAsyncThrows), flags)!.Invoke(null, BindingFlags.DoNotWrapExceptions, null, [7], null)));
        lines.Add("Invoke generic: " + await Invoke(() => type.GetMethod(nameof(Echo), flags)!.MakeGenericMethod(typeof(Guid)).Invoke(null, [Guid.Empty])));
        lines.Add("Invoke instance: " + await Invoke(() => typeof(Greeter).GetMethod("Greet")!.Invoke(greeter, ["inv"])));
        lines.Add("Invoke interface: " + await Invoke(() => typeof(IGreeter).GetMethod("Greet")!.Invoke(new Greeter("Yo"), ["iface"])));
        lines.Add("Invoke params: " + await Invoke(() => typeof(Greeter).GetMethod("Many")!.Invoke(greeter, ["+", new[] { 1, 2, 3 }])));
        lines.Add("Invoke optional: " + await Invoke(() => typeof(Greeter).GetMethod("Optional")!.Invoke(greeter, [2, Type.Missing])));
        lines.Add("Invoke wrong count: " + await Invoke(() => typeof(Greeter).GetMethod("Optional")!.Invoke(greeter, [2])));
        lines.Add("Invoke null target: " + await Invoke(() => typeof(Greeter).GetMethod("Greet")!.Invoke(null, ["x"])));
        object boxed = new Accumulator { Total = 100 };
        var addAsync = typeof(Accumulator).GetMethod("AddAsync")!;
        lines.Add("Invoke boxed struct: " + await Invoke(() => addAsync.Invoke(boxed, [1])) + $" box total={((Accumulator)boxed).Total}");

        var open = (Func<Greeter, string, Task<string>>)Delegate.CreateDelegate(typeof(Func<Greeter, string, Task<string>>), typeof(Greeter).GetMethod("Greet")!);
        var closed = (Func<int, Task<string>>)Delegate.CreateDelegate(typeof(Func<int, Task<string>>), "closed", typeof(Greeter).GetMethod("Tagged")!);
        lines.Add($"open {await open(new Greeter("Hey"), "o")} closed {await closed(3)} equal={greet.Equals((Func<string, Task<string>>)greeter.Greet)}");

        var p = Expression.Parameter(typeof(int), "x");
        var echoInt = type.GetMethod(nameof(Echo), flags)!.MakeGenericMethod(typeof(int));
        var compiled = Expression.Lambda<Func<int, Task<int>>>(Expression.Call(echoInt, Expression.Multiply(p, Expression.Constant(3))), p).Compile();
        var compiledEarly = Expression.Lambda<Func<int, Task<int>>>(Expression.Call(type.GetMethod(nameof(FailsEarly), flags)!, p), p).Compile();
        lines.Add($"expression {await compiled(14)} early: {await Show(compiledEarly(8))}");
        return string.Join("\n  ", lines);
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine($"  {await Lambdas()}");
            Console.WriteLine($"  {await Reflection()}");
        }
    }
}
