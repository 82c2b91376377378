// Cancellation and faults observed through every surface: for Task, Task<T>, ValueTask and
// ValueTask<T> methods that throw OperationCanceledException (token canceled, token not canceled,
// token of another source, no token, TaskCanceledException, a subclass), before and after a
// suspension, directly or through a method that catches and rethrows it (`throw;`, `throw e;`,
// ExceptionDispatchInfo, wrapped), seen by await (type, message, token, same object), by
// ContinueWith (status in the continuation), by AsTask, by .Wait() and .Result (aggregate shape).
// Also awaiting a TaskCompletionSource faulted with a list, Task.WhenAny over faulted tasks, and
// the exception's ToString first line and inner types.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.ExceptionServices;
using System.Threading;
using System.Threading.Tasks;

sealed class MyCanceledException : OperationCanceledException
{
    public MyCanceledException(string message, CancellationToken token) : base(message, token) { }
    public string Extra => "extra-" + Message.Length;
}

static class Program
{
    static bool Suspend;
    static readonly CancellationTokenSource canceledSource = new();
    static readonly CancellationTokenSource otherSource = new();
    static readonly CancellationTokenSource liveSource = new();
    static Exception? lastThrown;

    static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static Exception Make(int kind) => kind switch
    {
        0 => new OperationCanceledException("canceled token", canceledSource.Token),
        1 => new OperationCanceledException("live token", liveSource.Token),
        2 => new OperationCanceledException("other token", otherSource.Token),
        3 => new OperationCanceledException("no token"),
        4 => new TaskCanceledException("tce"),
        5 => new MyCanceledException("mine", canceledSource.Token),
        _ => new InvalidOperationException("plain"),
    };

    static async Task ThrowTask(int kind, bool after)
    {
        if (after) await Pause();
        throw lastThrown = Make(kind);
    }

    static async Task<int> ThrowTaskOfT(int kind, bool after)
    {
        if (after) await Pause();
        if (kind == 0) canceledSource.Token.ThrowIfCancellationRequested();
        throw lastThrown = Make(kind);
    }

    static async ValueTask ThrowValueTask(int kind, bool after)
    {
        await ThrowTask(kind, after);
    }

    static async ValueTask<string> ThrowValueTaskOfT(int kind, bool after)
    {
        return (await ThrowTaskOfT(kind, after)).ToString();
    }

    static async Task<int> Rethrow(int kind, bool after, int how)
    {
        try
        {
            return await ThrowTaskOfT(kind, after);
        }
        catch (OperationCanceledException e) when (how >= 0)
        {
            await Pause();
            switch (how)
            {
                case 0: throw;
                case 1: throw e;
                case 2: ExceptionDispatchInfo.Capture(e).Throw(); break;
                case 3: throw new InvalidOperationException("wrapped", e);
                case 4: throw new OperationCanceledException("replaced", e, liveSource.Token);
            }
            return -1;
        }
    }

    static string Describe(Exception? e)
    {
        if (e is null) return "none";
        string s = e.GetType().Name + "('" + e.Message + "')";
        if (e is OperationCanceledException oce)
        {
            string token = oce.CancellationToken == canceledSource.Token ? "canceled" : oce.CancellationToken == liveSource.Token ? "live" : oce.CancellationToken == otherSource.Token ? "other" : oce.CancellationToken == CancellationToken.None ? "none" : "?";
            s += " token=" + token;
        }
        if (e is MyCanceledException mine) s += " " + mine.Extra;
        if (e is TaskCanceledException tce) s += " task=" + (tce.Task is null ? "null" : tce.Task.Status.ToString());
        if (ReferenceEquals(e, lastThrown)) s += " same";
        if (e.InnerException is not null) s += " inner=" + Describe(e.InnerException);
        return s;
    }

    static async Task<string> Observe(Func<Task> start)
    {
        var parts = new List<string>();
        Task t = start();
        var cont = t.ContinueWith(p => $"cont sees {p.Status}", TaskContinuationOptions.ExecuteSynchronously);
        try
        {
            await t;
            parts.Add("await ok");
        }
        catch (Exception e)
        {
            parts.Add("await " + Describe(e));
        }
        parts.Add(await cont);
        parts.Add($"status {t.Status} canceled={t.IsCanceled} faulted={t.IsFaulted}");
        if (t.Exception is { } agg)
            parts.Add($"Exception {agg.InnerExceptions.Count}: {string.Join("; ", agg.InnerExceptions.Select(Describe))}");
        try { t.Wait(); }
        catch (AggregateException a) { parts.Add($"Wait {a.InnerExceptions.Count}x {Describe(a.InnerException)}"); }
        if (t is Task<int> ti)
        {
            try { _ = ti.Result; }
            catch (AggregateException a) { parts.Add($"Result {a.InnerExceptions.Count}x {a.InnerException!.GetType().Name}"); }
        }
        return string.Join(" | ", parts);
    }

    static async Task<string> AwaitMany(TaskCompletionSource<int> source, bool after)
    {
        if (after) await Pause();
        try
        {
            return "value " + await source.Task;
        }
        catch (Exception e)
        {
            return $"caught {Describe(e)}; task has {source.Task.Exception?.InnerExceptions.Count}";
        }
    }

    static async Task<int> FaultAfter(string message, TaskCompletionSource gate)
    {
        await gate.Task;
        throw new FormatException(message);
    }

    static async Task<string> FirstOfFaulted(bool after)
    {
        var gate = new TaskCompletionSource();
        var a = FaultAfter("a", gate);
        var b = FaultAfter("b", gate);
        if (after) await Pause();
        gate.SetResult();
        Task<int> winner = await Task.WhenAny(a, b);
        string s = $"winner {(winner == a ? "a" : "b")} {winner.Status}";
        try { await winner; }
        catch (FormatException e) { s += " rethrows " + e.Message; }
        try { await Task.WhenAll(a, b); }
        catch (FormatException e) { s += " whenall first " + e.Message; }
        return s;
    }

    static string FirstLine(Exception e)
    {
        var text = e.ToString();
        int nl = text.IndexOf('\n');
        return (nl < 0 ? text : text.Substring(0, nl)).TrimEnd('\r');
    }

    static async Task<string> ToStringShapes()
    {
        try
        {
            try
            {
                await ThrowTask(6, Suspend);
            }
            catch (Exception e)
            {
                await Pause();
                throw new AggregateException("outer agg", e, new ArgumentException("second"));
            }
        }
        catch (AggregateException e)
        {
            return FirstLine(e) + " || " + FirstLine(e.InnerExceptions[1]) + " || " + string.Join(",", e.Flatten().InnerExceptions.Select(x => x.GetType().Name));
        }
        return "none";
    }

    static async Task Main()
    {
        canceledSource.Cancel();
        otherSource.Cancel();
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var after in new[] { false, true })
            {
                for (int kind = 0; kind <= 6; kind++)
                {
                    Console.WriteLine($"kind={kind} after={after}");
                    Console.WriteLine("  Task: " + await Observe(() => ThrowTask(kind, after)));
                    Console.WriteLine("  Task<T>: " + await Observe(() => ThrowTaskOfT(kind, after)));
                    Console.WriteLine("  ValueTask: " + await Observe(() => ThrowValueTask(kind, after).AsTask()));
                    Console.WriteLine("  ValueTask<T>: " + await Observe(() => ThrowValueTaskOfT(kind, after).AsTask()));
                }
                foreach (var kind in new[] { 0, 2, 4 })
                    for (int how = -1; how <= 4; how++)
                        Console.WriteLine($"  Rethrow(kind={kind}, how={how}): " + await Observe(() => Rethrow(kind, after, how)));

                var many = new TaskCompletionSource<int>();
                many.SetException(new Exception[] { new FormatException("f1"), new ArgumentException("a2"), new OperationCanceledException("c3") });
                lastThrown = null;
                Console.WriteLine("AwaitMany: " + await AwaitMany(many, after));
                var manyTask = AwaitManyRethrow(many, after);
                Console.WriteLine("AwaitManyRethrow: " + await Observe(() => manyTask));
                Console.WriteLine("FirstOfFaulted: " + await FirstOfFaulted(after));
            }
            Console.WriteLine("ToStringShapes: " + await ToStringShapes());
        }
    }

    static async Task<int> AwaitManyRethrow(TaskCompletionSource<int> source, bool after)
    {
        if (after) await Pause();
        return await source.Task;
    }
}
