// Extension GetAwaiter on non-task types: a TimeSpan, a tuple of tasks (await (t1, t2)),
// Lazy<Task<T>>, IEnumerable<Task<T>>, a Func<Task<T>>, a generic extension over any T with a
// struct awaiter returning T (value, reference, nullable, big struct, dynamic), a class awaiter
// over a KeyValuePair; results used in expressions with values on the stack, in loops, through
// frames, and exceptions from them (WhenAll aggregates via the tuple awaiter).
using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

struct Big
{
    public long A, B, C, D, E, F, G, H, I;
    public string Name;
    public object? Tag;
    public override string ToString() => $"{Name}:{A + B + C + D + E + F + G + H + I}:{Tag ?? "null"}";
}

class MyError : Exception { public int Code; public MyError(string m, int code) : base(m) { Code = code; } }

readonly struct Box<T>
{
    public readonly T Value;
    public Box(T value) => Value = value;
}

struct BoxAwaiter<T> : ICriticalNotifyCompletion
{
    private readonly T value;
    private TaskAwaiter inner;
    public BoxAwaiter(T value)
    {
        this.value = value;
        inner = (Program.Suspend ? Task.Delay(1) : Task.CompletedTask).GetAwaiter();
    }
    public bool IsCompleted => inner.IsCompleted;
    public void OnCompleted(Action c) => inner.OnCompleted(c);
    public void UnsafeOnCompleted(Action c) => inner.UnsafeOnCompleted(c);
    public T GetResult() { inner.GetResult(); return value; }
}

sealed class PairAwaiter<K, V> : INotifyCompletion
{
    private readonly KeyValuePair<K, V> pair;
    public PairAwaiter(KeyValuePair<K, V> pair) => this.pair = pair;
    public bool IsCompleted => !Program.Suspend;
    public void OnCompleted(Action c) => Task.Run(c);
    public (V, K) GetResult() => (pair.Value, pair.Key);
}

static class AwaitExtensions
{
    public static TaskAwaiter GetAwaiter(this TimeSpan span) => Task.Delay(Program.Suspend ? span : TimeSpan.Zero).GetAwaiter();

    public static TaskAwaiter<(T1, T2)> GetAwaiter<T1, T2>(this (Task<T1>, Task<T2>) tasks)
    {
        async Task<(T1, T2)> Both()
        {
            await Task.WhenAll(tasks.Item1, tasks.Item2);
            return (tasks.Item1.Result, tasks.Item2.Result);
        }
        return Both().GetAwaiter();
    }

    public static TaskAwaiter<T> GetAwaiter<T>(this Lazy<Task<T>> lazy) => lazy.Value.GetAwaiter();

    public static TaskAwaiter<T[]> GetAwaiter<T>(this IEnumerable<Task<T>> tasks) => Task.WhenAll(tasks).GetAwaiter();

    public static TaskAwaiter<T> GetAwaiter<T>(this Func<Task<T>> f) => f().GetAwaiter();

    public static BoxAwaiter<T> GetAwaiter<T>(this Box<T> box) => new BoxAwaiter<T>(box.Value);

    public static PairAwaiter<K, V> GetAwaiter<K, V>(this KeyValuePair<K, V> pair) => new PairAwaiter<K, V>(pair);
}

static class Program
{
    public static bool Suspend;

    static async Task<T> Later<T>(T v) { if (Suspend) await Task.Yield(); return v; }
    static async Task<int> FailLater(int code) { if (Suspend) await Task.Yield(); throw new MyError("failed " + code, code); }

    static async Task<string> Basics()
    {
        await TimeSpan.FromMilliseconds(2);
        var (a, b) = await (Later(1), Later("two"));
        var lazy = new Lazy<Task<long>>(() => Later(3L));
        long c = await lazy + await lazy;
        int[] all = await Enumerable.Range(0, 5).Select(i => Later(i * i));
        Func<Task<decimal>> f = () => Later(4.5m);
        decimal d = await f;
        return $"{a} {b} {c} {string.Join(",", all)} {d}";
    }

    static async Task<string> Boxes<T>(T value)
    {
        T x = await new Box<T>(value);
        T? y = await new Box<T?>(default);
        var nested = await new Box<Box<T>>(new Box<T>(value));
        return $"{typeof(T).Name}:{x}/{(y is null ? "null" : y.ToString())}/{nested.Value}";
    }

    static async Task<string> BigBoxes()
    {
        var big = new Big { A = 1, B = 2, C = 3, D = 4, E = 5, F = 6, G = 7, H = 8, I = 9, Name = "big", Tag = new List<int> { 1 } };
        string s = "";
        for (int i = 0; i < 3; i++)
        {
            big.A += i;
            Big got = await new Box<Big>(big);
            s += got + ";";
            big.Tag = i;
        }
        int? n1 = await new Box<int?>(null);
        int? n2 = await new Box<int?>(42);
        DayOfWeek dw = await new Box<DayOfWeek>(DayOfWeek.Friday);
        dynamic dyn = await new Box<dynamic>(7);
        int viaDyn = dyn + 1;
        (int, string, Big) tup = await new Box<(int, string, Big)>((1, "t", big));
        return s + $" {n1?.ToString() ?? "null"} {n2} {dw} {viaDyn} {tup.Item3.Name}{tup.Item1}{tup.Item2}";
    }

    static async Task<string> Pairs()
    {
        var (v, k) = await new KeyValuePair<string, Big>("key", new Big { I = 9, Name = "val" });
        var (v2, k2) = await new KeyValuePair<int, decimal?>(5, null);
        return $"{k}={v} {k2}={(v2.HasValue ? v2 : "null")}";
    }

    static async Task<string> Failures()
    {
        var parts = new List<string>();
        try { var (x, y) = await (FailLater(1), Later(2)); parts.Add("no " + x + y); }
        catch (MyError e) { parts.Add("tuple " + e.Message + " " + e.Code); }
        try { await (FailLater(2), FailLater(3)); }
        // Which of the two WhenAll rethrows depends on which failed first, in classic async too.
        catch (MyError e) { parts.Add("tuple2 " + (e.Code is 2 or 3 ? "failed 2 or 3" : e.Message)); }
        var lazy = new Lazy<Task<int>>(() => FailLater(4));
        for (int i = 0; i < 2; i++)
        {
            try { await lazy; }
            catch (MyError e) { parts.Add("lazy " + i + " " + e.Code); }
        }
        try { await new[] { Later(1), FailLater(5), FailLater(6) }.AsEnumerable(); }
        catch (MyError e) { parts.Add("many " + e.Code); }
        var whenAll = Task.WhenAll(FailLater(7), FailLater(8));
        try { await whenAll; }
        catch (MyError e) { parts.Add($"whenall {e.Code} inner={whenAll.Exception!.InnerExceptions.Count}"); }
        return string.Join("; ", parts);
    }

    static async Task<int> Frame3(int i) => await new Box<int>(i) + await (Later(i), Later(1)) switch { var (a, b) => a * b };
    static async Task<int> Frame2(int i) => await Frame3(i) * 2 + await new Box<int>(1);
    static async Task<int> Frame1()
    {
        int sum = 0;
        for (int i = 0; i < 5; i++) sum += await Frame2(i);
        return sum;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Basics());
            Console.WriteLine(await Boxes(5));
            Console.WriteLine(await Boxes("s"));
            Console.WriteLine(await Boxes<double?>(1.5));
            Console.WriteLine(await Boxes(Guid.Empty));
            Console.WriteLine(await Boxes<object>(new Version(1, 2)));
            Console.WriteLine(await BigBoxes());
            Console.WriteLine(await Pairs());
            Console.WriteLine(await Failures());
            Console.WriteLine(await Frame1());
        }
    }
}
