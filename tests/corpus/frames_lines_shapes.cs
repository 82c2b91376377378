// Exception traces WITH file names and line numbers (directories stripped) through many shapes:
// 4-level chains, generic methods of generic nested types, property getters, constructors' tasks,
// static local functions, throw; rethrows with and without awaits in the catch, when filters
// (true/false), finally with awaits, ExceptionDispatchInfo.Throw, custom awaiter GetResult,
// multi-line statements with awaits, loops whose condition awaits, switch expressions.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using System.Text.RegularExpressions;
using System.Threading.Tasks;

static class Outer<T>
{
    public sealed class Nested<U>
    {
        public async Task<U> Convert<V>(T t, V v)
        {
            await Program.Pause();
            if (t is int i && i < 0)
                throw new ArgumentOutOfRangeException(nameof(t), "negative " + typeof(V).Name);
            return default!;
        }
    }
}

sealed class Repo
{
    private readonly Task<int> _init;
    public Repo(int seed)
    {
        _init = LoadAsync(seed);
    }

    private static async Task<int> LoadAsync(int seed)
    {
        await Program.Pause();
        if (seed == 13) throw new InvalidOperationException("unlucky seed");
        return seed;
    }

    public Task<int> Ready => GetReady();

    private async Task<int> GetReady()
    {
        var v = await _init;
        return v + 1;
    }

    public async Task<string> Name()
    {
        return "repo" + await Ready;
    }
}

sealed class FailingAwaitable
{
    public bool Later;
    public FailingAwaiter GetAwaiter() => new FailingAwaiter(Later);
}

sealed class FailingAwaiter : INotifyCompletion
{
    private readonly bool _later;
    public FailingAwaiter(bool later) => _later = later;
    public bool IsCompleted => !_later;
    public void OnCompleted(Action continuation) => Task.Run(continuation);
    public int GetResult() => throw new NotSupportedException("awaiter says no");
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static readonly Regex Location = new(@" in (?:.*[/\\])?([^/\\]+):line (\d+)");

    static void Show(string title, Exception e)
    {
        Console.WriteLine($"[{title}]");
        foreach (var raw in e.ToString().Split('\n'))
        {
            var line = raw.TrimEnd('\r');
            Console.WriteLine(Location.Replace(line, " in $1:$2"));
        }
    }

    static async Task Run(string title, Func<Task> action)
    {
        try
        {
            await action();
            Console.WriteLine($"[{title}] no exception");
        }
        catch (Exception e)
        {
            Show(title, e);
        }
    }

    // 1. four levels
    static async Task<int> L4(int x)
    {
        await Pause();
        if (x > 0)
            throw new InvalidOperationException("level 4");
        return x;
    }
    static async Task<int> L3(int x) { var r = await L4(x); return r + 1; }
    static async Task<int> L2(int x)
    {
        int total = 0;
        total += await L3(x);
        return total;
    }
    static async Task<int> L1(int x)
    {
        try
        {
            return await L2(x) * 2;
        }
        finally
        {
            await Pause();
        }
    }

    // 2. rethrow with and without awaits in the catch
    static async Task RethrowPlain()
    {
        try
        {
            await L3(1);
        }
        catch (InvalidOperationException)
        {
            throw;
        }
    }

    static async Task RethrowAfterAwait()
    {
        try
        {
            await L3(1);
        }
        catch (InvalidOperationException)
        {
            await Pause();
            throw;
        }
    }

    static async Task ThrowNewWithInner()
    {
        try
        {
            await L4(2);
        }
        catch (Exception e)
        {
            await Pause();
            throw new ApplicationException("wrapped", e);
        }
    }

    // 3. filters
    static bool Log(string s, bool r) { Console.WriteLine("filter " + s); return r; }

    static async Task FilterDeclines()
    {
        try
        {
            await L2(1);
        }
        catch (InvalidOperationException e) when (Log(e.Message, false))
        {
            Console.WriteLine("not here");
        }
    }

    static async Task FilterAccepts()
    {
        try
        {
            await L2(1);
        }
        catch (InvalidOperationException e) when (Log(e.Message, true))
        {
            await Pause();
            throw new AggregateException("filtered", e);
        }
    }

    // 4. EDI
    static async Task Edi()
    {
        ExceptionDispatchInfo? edi = null;
        try
        {
            await L3(3);
        }
        catch (Exception e)
        {
            edi = ExceptionDispatchInfo.Capture(e);
        }
        await Pause();
        edi!.Throw();
    }

    // 5. custom awaiter
    static async Task<int> Custom(bool later)
    {
        await Pause();
        int r = await new FailingAwaitable { Later = later };
        return r;
    }

    // 6. multi-line statements
    static int Combine(int a, int b, int c)
    {
        if (a + b + c > 5) throw new OverflowException("too big " + (a + b + c));
        return a + b + c;
    }
    static async Task<int> Val(int v) { await Pause(); return v; }

    static async Task<int> MultiLine()
    {
        var x = Combine(
            await Val(1),
            await Val(2),
            await Val(3));
        return x;
    }

    static async Task<int> MultiLineInner()
    {
        var x = Combine(
            1,
            await L4(9),
            3);
        return x;
    }

    static async Task<string> SwitchArms(int k)
    {
        return k switch
        {
            0 => "zero",
            1 => (await L4(1)).ToString(),
            _ => "many",
        };
    }

    static async Task<int> LoopCondition()
    {
        int i = 0;
        while (await Val(i) < 10)
        {
            i++;
            if (i == 3)
                await L4(i);
        }
        return i;
    }

    static async Task<int> ForCondition()
    {
        int sum = 0;
        for (int i = 0;
             i < await Val(5);
             i += await Val(1))
        {
            sum += Combine(i, i, 0);
        }
        return sum;
    }

    // 7. static local function and generic nested type
    static async Task<int> WithLocal(int n)
    {
        return await Step(n) + 1;

        static async Task<int> Step(int n)
        {
            await Pause();
            return await Deeper(n);
        }

        static async Task<int> Deeper(int n)
        {
            await Pause();
            throw new KeyNotFoundException("local " + n);
        }
    }

    static async Task Generic()
    {
        var n = new Outer<int>.Nested<string>();
        var s = await n.Convert<double>(-1, 2.5);
        Console.WriteLine(s);
    }

    // 8. constructor-started task, property getter
    static async Task Ctor()
    {
        var repo = new Repo(13);
        await Pause();
        Console.WriteLine(await repo.Name());
    }

    // 9. ternary over two lines
    static async Task<int> Ternary(bool b)
    {
        return b
            ? await L4(5)
            : await Val(0);
    }

    // 10. ValueTask chain
    static async ValueTask<int> V2(int x)
    {
        await Pause();
        if (x > 0) throw new FormatException("vt");
        return x;
    }
    static async ValueTask<int> V1(int x) => await V2(x) + 1;

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"===== suspend={suspend}");
            await Run("four levels", () => L1(1));
            await Run("rethrow", RethrowPlain);
            await Run("rethrow after await", RethrowAfterAwait);
            await Run("inner", ThrowNewWithInner);
            await Run("filter declines", FilterDeclines);
            await Run("filter accepts", FilterAccepts);
            await Run("edi", Edi);
            await Run("custom now", () => Custom(false));
            await Run("custom later", () => Custom(true));
            await Run("multiline", MultiLine);
            await Run("multiline inner", MultiLineInner);
            await Run("switch arms", () => SwitchArms(1));
            await Run("loop condition", LoopCondition);
            await Run("for condition", ForCondition);
            await Run("local functions", () => WithLocal(4));
            await Run("generic", Generic);
            await Run("ctor", Ctor);
            await Run("ternary", () => Ternary(true));
            await Run("valuetask", () => V1(1).AsTask());
        }
    }
}
