// Results and exceptions flowing back across the three models in one chain: rewritten
// methods, classic ones ([RuntimeAsyncMethodGeneration(false)]) and pooled ValueTask methods
// ([AsyncMethodBuilder(PoolingAsyncValueTaskMethodBuilder<>)]); results that are big structs with
// references, nullable values, enums of several sizes, generic T over value and reference types
// (shared and unshared code), ValueTask<T> of structs; frames that add to a result after a
// resumption, a loop calling the same suspending method; overridden async methods (rewritten,
// classic, non-async) through a generic base; custom exceptions, exceptions thrown from finally
// blocks after a resumption, cancellation with a token, and WhenAll aggregates.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

enum Small : byte { A = 1, B = 200 }
enum Wide : long { Min = long.MinValue, X = 0x1_0000_0001 }

struct Big
{
    public long A, B, C, D, E, F, G, H;
    public string? S;
    public object? O;
    public Big Add(long v, string tag) { var b = this; b.A += v; b.H -= v; b.S += tag; return b; }
    public override string ToString() => $"[{A},{B},{H},{S},{O}]";
}

class StageError : Exception { public readonly int Stage; public StageError(int stage, Exception? inner = null) : base("stage " + stage, inner) { Stage = stage; } }

abstract class Source<T>
{
    public abstract Task<T> Get(int i);
    public virtual async ValueTask<T> GetVT(int i) { await Program.Pause(); return await Get(i); }
}

sealed class RewrittenSource<T>(Func<int, T> make) : Source<T>
{
    public override async Task<T> Get(int i) { await Program.Pause(); await Program.Pause(); return make(i); }
}

sealed class ClassicSource<T>(Func<int, T> make) : Source<T>
{
    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<T> Get(int i) { await Program.Pause(); return make(i); }
    [RuntimeAsyncMethodGeneration(false)]
    public override async ValueTask<T> GetVT(int i) => await base.GetVT(i);
}

sealed class PlainSource<T>(Func<int, T> make) : Source<T>
{
    public override Task<T> Get(int i) => Program.Suspend ? Task.Run(() => make(i)) : Task.FromResult(make(i));
}

static class Program
{
    public static bool Suspend;
    public static async Task Pause() { if (Suspend) await Task.Yield(); }

    static async Task<Big> Leaf(Big b, int i)
    {
        await Pause();
        b = b.Add(i, "l");
        await Pause();
        return b.Add(1, "L");
    }

    [RuntimeAsyncMethodGeneration(false)]
    static async Task<Big> ClassicMiddle(Big b, int i)
    {
        var r = await Leaf(b, i);
        await Pause();
        return r.Add(10, "c");
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    static async ValueTask<Big> PooledMiddle(Big b, int i)
    {
        var r = await ClassicMiddle(b, i);
        return r.Add(100, "p");
    }

    static async Task<Big> Top(int n)
    {
        var b = new Big { B = 7, H = 1000, S = "", O = new List<string> { "x" } };
        for (int i = 0; i < n; i++)
        {
            b = await PooledMiddle(b, i);
            b.O = i % 2 == 0 ? "even" : i;
        }
        return b;
    }

    static async Task<string> Values<T>(Source<T> src)
    {
        string s = "";
        for (int i = 0; i < 3; i++)
        {
            T a = await src.Get(i);
            T b = await src.GetVT(i);
            s += $"{a}/{b} ";
        }
        return typeof(T).Name + " " + src.GetType().Name.Split('`')[0] + ": " + s;
    }

    [RuntimeAsyncMethodGeneration(false)]
    static async Task<string> ClassicValues<T>(Source<T> src) => "classic " + await Values(src);

    static async Task<string> AllValues(Func<Func<int, Big>, Source<Big>> mkBig, Func<Func<int, int?>, Source<int?>> mkNull,
        Func<Func<int, Small>, Source<Small>> mkSmall, Func<Func<int, Wide>, Source<Wide>> mkWide, Func<Func<int, string>, Source<string>> mkStr,
        Func<Func<int, ValueTuple<string, decimal>>, Source<ValueTuple<string, decimal>>> mkTuple)
    {
        var lines = new List<string>
        {
            await Values(mkBig(i => new Big { A = i, S = "b" + i, O = i })),
            await ClassicValues(mkNull(i => i == 1 ? null : i)),
            await Values(mkSmall(i => i == 1 ? Small.B : (Small)i)),
            await ClassicValues(mkWide(i => i == 2 ? Wide.Min : Wide.X + i)),
            await Values(mkStr(i => i == 0 ? null! : "s" + i)),
            await ClassicValues(mkTuple(i => ("t" + i, i * 1.5m))),
        };
        return string.Join("\n", lines);
    }

    static async Task<int> Thrower(int stage)
    {
        try
        {
            await Pause();
            throw new StageError(stage);
        }
        finally
        {
            await Pause();
            if (stage % 2 == 0) throw new StageError(stage + 100);
        }
    }

    [RuntimeAsyncMethodGeneration(false)]
    static async Task<int> ClassicRethrow(int stage)
    {
        try { return await Thrower(stage); }
        catch (StageError e) when (e.Stage > 100) { await Pause(); throw new StageError(stage + 1000, e); }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    static async ValueTask<int> PooledWrap(int stage)
    {
        try { return await ClassicRethrow(stage); }
        finally { await Pause(); }
    }

    static async Task<string> Exceptions()
    {
        var parts = new List<string>();
        for (int stage = 1; stage <= 4; stage++)
        {
            try { await PooledWrap(stage); }
            catch (StageError e) { parts.Add($"{e.Stage}<-{(e.InnerException as StageError)?.Stage}"); }
        }
        var all = Task.WhenAll(PooledWrap(1).AsTask(), PooledWrap(2).AsTask(), ClassicRethrow(3));
        try { await all; }
        catch (StageError e) { parts.Add("first " + e.Stage + " all " + all.Exception!.InnerExceptions.Count); }
        return string.Join(" ", parts);
    }

    static async Task<int> Cancellable(CancellationToken token, int i)
    {
        await Pause();
        if (i == 2) token.ThrowIfCancellationRequested();
        await Pause();
        return i;
    }

    [RuntimeAsyncMethodGeneration(false)]
    static async Task<string> ClassicCancelCaller(CancellationToken token)
    {
        string s = "";
        for (int i = 0; i < 4; i++)
        {
            var t = Cancellable(token, i);
            try { s += await t; }
            catch (OperationCanceledException e) { s += $"[{t.Status} {e.CancellationToken == token}]"; }
        }
        return s;
    }

    static async Task<string> Cancellation()
    {
        using var cts = new CancellationTokenSource();
        cts.Cancel();
        string a = await ClassicCancelCaller(cts.Token);
        var pooled = CancelPooled(cts.Token);
        string b;
        try { b = (await pooled).ToString(); }
        catch (OperationCanceledException e) { b = "pooled canceled " + (e.CancellationToken == cts.Token); }
        return a + " " + b;
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    static async ValueTask<int> CancelPooled(CancellationToken token) => await Cancellable(token, 2);

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Top(4));
            Console.WriteLine(await AllValues(f => new RewrittenSource<Big>(f), f => new ClassicSource<int?>(f), f => new PlainSource<Small>(f),
                f => new RewrittenSource<Wide>(f), f => new ClassicSource<string>(f), f => new PlainSource<(string, decimal)>(f)));
            Console.WriteLine(await AllValues(f => new ClassicSource<Big>(f), f => new PlainSource<int?>(f), f => new RewrittenSource<Small>(f),
                f => new ClassicSource<Wide>(f), f => new PlainSource<string>(f), f => new RewrittenSource<(string, decimal)>(f)));
            Console.WriteLine(await Exceptions());
            Console.WriteLine(await Cancellation());
        }
    }
}
