// Faulted and canceled tasks of rewritten methods as Task APIs see them, for exceptions that are
// unusual to store: an AggregateException thrown by user code (stored wrapped, rethrown unwrapped by
// await, Flatten), a TaskCanceledException created without a task, an OperationCanceledException
// carrying a token that was never canceled (the task is canceled all the same, and await rethrows the
// very object), OperationCanceledException subclasses, exceptions thrown from a finally or a catch
// after a suspension, the same exception object thrown by two methods, an exception whose Data is
// filled as it passes up through callers' catch/throw; and ValueTask-returning methods: IsFaulted /
// IsCanceled right after the call, AsTask's Exception. Also blocking waits on these tasks from the
// thread pool, WaitAsync with a token, WhenEach order and WhenAny over them. Runs on a SingleThreadLoop.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

sealed class MyCanceled(string m, CancellationToken t) : OperationCanceledException(m, t);

static class Program
{
    static bool Suspend;
    static readonly Exception Shared = new InvalidOperationException("shared");
    static readonly CancellationTokenSource Never = new();

    static async Task Pause() { if (Suspend) await Task.Yield(); }

    static async Task ThrowAggregate() { await Pause(); throw new AggregateException("agg", new InvalidOperationException("i1"), new AggregateException(new ArgumentException("i2"))); }
    static async Task ThrowTce() { await Pause(); throw new TaskCanceledException("tce without task"); }
    static async Task<int> ThrowOceUncanceled() { await Pause(); throw new OperationCanceledException("oce", Never.Token); }
    static async Task<int> ThrowMyCanceled(CancellationToken t) { await Pause(); throw new MyCanceled("mine", t); }
    static async Task ThrowShared() { await Pause(); throw Shared; }

    static async Task<int> FromFinally()
    {
        try { await Pause(); return 1; }
        finally { await Pause(); throw new InvalidOperationException("from finally"); }
    }

    static async Task<int> FromCatch()
    {
        try { await Pause(); throw new ArgumentException("first"); }
        catch (ArgumentException e) { await Pause(); throw new InvalidOperationException("from catch", e); }
    }

    static async Task<int> Annotating(int depth)
    {
        try
        {
            if (depth == 0) { await Pause(); throw new KeyNotFoundException("deep"); }
            return await Annotating(depth - 1);
        }
        catch (Exception e)
        {
            e.Data[$"d{depth}"] = depth;
            await Pause();
            throw;
        }
    }

    static async ValueTask<int> VtFault() { await Pause(); throw new FormatException("vt"); }
    static async ValueTask VtCancel(CancellationToken t) { await Pause(); t.ThrowIfCancellationRequested(); }

    static string Shape(Exception? e) => e switch
    {
        null => "null",
        AggregateException a => $"Agg[{string.Join(",", a.InnerExceptions.Select(Shape))}]",
        TaskCanceledException t => $"TCE(task {(t.Task is null ? "null" : t.Task.Status.ToString())}, tokenCanceled {t.CancellationToken.IsCancellationRequested})'{t.Message}'",
        OperationCanceledException o => $"{o.GetType().Name}(tokenCanceled {o.CancellationToken.IsCancellationRequested}, isNever {o.CancellationToken == Never.Token})'{o.Message}'",
        _ => $"{e.GetType().Name}'{e.Message}'{(e.InnerException is { } i ? $"<-{Shape(i)}" : "")}{(e.Data.Count > 0 ? "{" + string.Join(",", e.Data.Keys.Cast<object>().Select(k => k.ToString()).OrderBy(k => k)) + "}" : "")}",
    };

    static async Task<string> Observe(string name, Func<Task> start)
    {
        var t = start();
        var status0 = t.Status;
        string awaited;
        Exception? thrown = null;
        try { await t; awaited = "ok"; }
        catch (Exception e) { thrown = e; awaited = Shape(e); }
        var same = thrown is not null && t.Exception is { } agg && agg.InnerExceptions.Contains(thrown) ? " (await threw the stored one)" : "";
        string waited;
        try { t.Wait(); waited = "ok"; } catch (Exception e) { waited = Shape(e); }
        var flat = t.Exception?.Flatten().InnerExceptions.Count;
        return $"{name}: at call {status0}, then {t.Status}; await: {awaited}{same}; Wait: {waited}; Exception: {Shape(t.Exception)} flat {flat?.ToString() ?? "-"}";
    }

    // On a single-threaded loop, so that a Task.Yield in a method resumes only after its caller has
    // looked at the task (Status right after the call is then deterministic).
    static void Main()
    {
        var loop = new SingleThreadLoop();
        loop.RunUntilComplete(Run);
        loop.Stop();
    }

    static async Task Run()
    {
        using var cts = new CancellationTokenSource();
        cts.Cancel();
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Observe("aggregate", ThrowAggregate));
            Console.WriteLine(await Observe("tce", ThrowTce));
            Console.WriteLine(await Observe("oce-uncanceled", ThrowOceUncanceled));
            Console.WriteLine(await Observe("my-canceled", () => ThrowMyCanceled(cts.Token)));
            Console.WriteLine(await Observe("my-canceled-none", () => ThrowMyCanceled(default)));
            Console.WriteLine(await Observe("finally", FromFinally));
            Console.WriteLine(await Observe("catch", FromCatch));
            Console.WriteLine(await Observe("annotating", () => Annotating(3)));
            var s1 = ThrowShared(); var s2 = ThrowShared();
            try { await Task.WhenAll(s1, s2); } catch (Exception e) { Console.WriteLine($"shared: {Shape(e)} same object {ReferenceEquals(s1.Exception!.InnerException, s2.Exception!.InnerException)} whenall count {Task.WhenAll(s1, s2).Exception!.InnerExceptions.Count}"); }

            var oce = ThrowOceUncanceled();
            try { await oce; } catch (OperationCanceledException e) { Console.WriteLine($"oce token kept {e.CancellationToken == Never.Token}; canceled task {oce.IsCanceled}"); }

            var vf = VtFault();
            var vc = VtCancel(cts.Token);
            Console.WriteLine($"vt at call: faulted {vf.IsFaulted} canceled {vc.IsCanceled} completed {vf.IsCompleted}/{vc.IsCompleted}");
            await Task.WhenAll(vf.AsTask().ContinueWith(_ => { }), vc.AsTask().ContinueWith(_ => { }));
            Console.WriteLine($"vt AsTask: {Shape(vf.AsTask().Exception)} {vc.AsTask().Status}");
            try { await vf; } catch (Exception e) { Console.WriteLine($"vt await {Shape(e)}"); }
            try { await vc; } catch (Exception e) { Console.WriteLine($"vt await {Shape(e)}"); }

            // Blocking on them from thread-pool threads.
            var blocked = await Task.Run(() =>
            {
                var r = new List<string>();
                foreach (var (n, f) in new (string, Func<Task>)[] { ("agg", ThrowAggregate), ("fin", FromFinally), ("oce", ThrowOceUncanceled) })
                {
                    try { f().GetAwaiter().GetResult(); r.Add($"{n} ok"); } catch (Exception e) { r.Add($"{n} {Shape(e)}"); }
                }
                return string.Join("; ", r);
            });
            Console.WriteLine($"blocking: {blocked}");

            // WaitAsync with an already canceled token on a pending rewritten task; WhenEach order.
            var gate = new TaskCompletionSource();
            async Task<int> After(int v, Task g) { await g; await Pause(); return v; }
            var pending = After(5, gate.Task);
            try { await pending.WaitAsync(cts.Token); } catch (Exception e) { Console.WriteLine($"WaitAsync(canceled token): {Shape(e)}; original {pending.Status}"); }
            var tasks = new[] { ThrowOceUncanceled(), After(1, gate.Task), ThrowMyCanceled(cts.Token) };
            gate.SetResult();
            var order = new List<string>();
            var firstDone = await Task.WhenAny(tasks);
            await foreach (var done in Task.WhenEach(tasks))
                order.Add($"{Array.IndexOf(tasks, done)}:{done.Status}");
            order.Sort(StringComparer.Ordinal);
            Console.WriteLine($"WhenAny gave a completed one {firstDone.IsCompleted}; WhenEach saw {string.Join(",", order)}; pending {await pending.WaitAsync(TimeSpan.FromSeconds(30))}");
        }
    }
}
