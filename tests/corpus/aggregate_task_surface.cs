// The Task objects that rewritten methods return, used as Task APIs use them rather than awaited:
// identity of synchronously completed tasks (classic async hands out the cached completed Task,
// cached Task<bool>, Task<int> for -1..8 and default results, and ValueTasks that wrap no task),
// Status/CreationOptions/AsyncState/IsCompletedSuccessfully before and after a suspension,
// Wait/Wait(0)/Result/GetAwaiter().GetResult() on faulted and canceled tasks (AggregateException
// shapes and messages, TaskCanceledException carrying its task), Task.WaitAll/WaitAny,
// Task.WhenAny over already completed, faulted and canceled tasks (the first completed in argument
// order wins), Task.WhenAll mixes (a fault wins over a cancellation; results in argument order), and
// ContinueWith with TaskContinuationOptions (OnlyOnFaulted, NotOnRanToCompletion, OnlyOnCanceled,
// ExecuteSynchronously, LazyCancellation) whose continuations are themselves async lambdas.
// Cancellations always happen after a suspension, where every async model gives a Canceled task.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static async Task Nothing() { }
    static async Task<T> Now<T>(T v) => v;
    static async ValueTask<T> NowVT<T>(T v) => v;
    static async ValueTask NothingVT() { }

    static async Task<int> Later(int v, TaskCompletionSource gate)
    {
        await gate.Task;
        return v;
    }

    static async Task<int> FaultNow(string message) => throw new InvalidOperationException(message);

    static async Task<int> FaultLater(string message, TaskCompletionSource gate)
    {
        await gate.Task;
        throw new ArgumentException(message);
    }

    static async Task<int> CancelLater(CancellationToken token, TaskCompletionSource gate)
    {
        await gate.Task;
        token.ThrowIfCancellationRequested();
        return -1;
    }

    static string Shape(Exception e) => e switch
    {
        AggregateException a => $"Aggregate({a.InnerExceptions.Count}: {string.Join("; ", a.InnerExceptions.Select(Shape))}) '{a.Message}'",
        TaskCanceledException t => $"TaskCanceled(task {t.Task?.Status.ToString() ?? "null"}) '{t.Message}'",
        _ => $"{e.GetType().Name} '{e.Message}'",
    };

    static string Try(Func<object?> f)
    {
        try { return $"= {f()}"; }
        catch (Exception e) { return $"threw {Shape(e)}"; }
    }

    static void Identity()
    {
        Console.WriteLine($"void same={ReferenceEquals(Nothing(), Nothing())} is CompletedTask={ReferenceEquals(Nothing(), Task.CompletedTask)}");
        string Same<T>(T v) => ReferenceEquals(Now(v), Now(v)) ? "S" : "d";
        Console.WriteLine($"cached: bool {Same(true)}{Same(false)} int {string.Concat(Enumerable.Range(-2, 13).Select(Same))} long {Same(0L)}{Same(1L)} "
            + $"string {Same<string?>(null)}{Same("")} int? {Same<int?>(null)}{Same<int?>(0)} decimal {Same(0m)}{Same(1m)} Guid {Same(Guid.Empty)} char {Same('\0')}{Same('a')}");
        var vt = NowVT("x");
        var vv = NothingVT();
        Console.WriteLine($"ValueTask<string> AsTask same={ReferenceEquals(vt.AsTask(), vt.AsTask())} ValueTask AsTask is CompletedTask={ReferenceEquals(vv.AsTask(), Task.CompletedTask)} {vt.IsCompletedSuccessfully}");
        var faulted1 = FaultNow("a");
        var faulted2 = FaultNow("a");
        Console.WriteLine($"faulted same={ReferenceEquals(faulted1, faulted2)} {faulted1.Status} ids differ={faulted1.Id != faulted2.Id} options={faulted1.CreationOptions} state={faulted1.AsyncState ?? "null"}");
        _ = faulted1.Exception; _ = faulted2.Exception;
    }

    static async Task Blocking()
    {
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var cts = new CancellationTokenSource();
        var pending = Later(1, gate);
        var faultLater = FaultLater("late", gate);
        var cancelLater = CancelLater(cts.Token, gate);
        var faultNow = FaultNow("now");
        Console.WriteLine($"before: {pending.Status} {faultLater.Status} {cancelLater.Status} {faultNow.Status} IsCompleted={pending.IsCompleted} Wait(0)={pending.Wait(0)}");
        cts.Cancel();
        gate.SetResult();
        await Task.WhenAll(pending, faultLater.ContinueWith(_ => { }), cancelLater.ContinueWith(_ => { }));
        Console.WriteLine($"after: {pending.Status} {faultLater.Status} {cancelLater.Status} success={pending.IsCompletedSuccessfully} canceled={cancelLater.IsCanceled} exception null={cancelLater.Exception is null}");
        foreach (var (name, t) in new[] { ("pending", pending), ("faultLater", faultLater), ("cancelLater", cancelLater), ("faultNow", faultNow) })
        {
            Console.WriteLine($"  {name}: Result {Try(() => t.Result)}");
            Console.WriteLine($"  {name}: Wait {Try(() => { t.Wait(); return "ok"; })}; Wait(10) {Try(() => t.Wait(10))}");
            Console.WriteLine($"  {name}: GetResult {Try(() => t.GetAwaiter().GetResult())}; Exception {(t.Exception is { } e ? Shape(e) : "null")}");
        }
        Console.WriteLine($"WaitAll {Try(() => { Task.WaitAll(pending, faultLater, cancelLater, faultNow); return "ok"; })}");
        Console.WriteLine($"WaitAny {Try(() => Task.WaitAny(faultLater, pending))}");
    }

    static async Task Combinators()
    {
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var cts = new CancellationTokenSource();
        var done = Now(7);
        var faulted = FaultNow("boom");
        var pending = Later(3, gate);
        var canceling = CancelLater(cts.Token, gate);
        var any1 = await Task.WhenAny(pending, done, faulted);
        var any2 = await Task.WhenAny(pending, faulted, done);
        Console.WriteLine($"WhenAny first completed: {(any1 == done ? "done" : "?")} {(any2 == faulted ? "faulted" : "?")} pending still {pending.Status}");
        cts.Cancel();
        gate.SetResult();
        var results = await Task.WhenAll(pending, done, Now(11));
        Console.WriteLine($"WhenAll results {string.Join(",", results)}");
        foreach (var (name, tasks) in new[] { ("fault+cancel", new[] { canceling, faulted, done }), ("cancel+done", new[] { done, canceling }), ("two faults", new[] { faulted, FaultNow("second") }) })
        {
            var all = Task.WhenAll(tasks);
            try { await all; Console.WriteLine($"  {name}: ok"); }
            catch (Exception e) { Console.WriteLine($"  {name}: await threw {Shape(e)}; task {all.Status}, Exception {(all.Exception is { } x ? Shape(x) : "null")}"); }
        }
        var anyCanceled = await Task.WhenAny(canceling, Later(1, gate));
        Console.WriteLine($"WhenAny over canceled: {anyCanceled.Status}");
    }

    static async Task Continuations()
    {
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var cts = new CancellationTokenSource();
        var ok = Later(5, gate);
        var bad = FaultLater("cw", gate);
        var canceled = CancelLater(cts.Token, gate);
        var log = new List<string>();
        Task<string> Attach(string name, Task<int> antecedent, TaskContinuationOptions options) =>
            antecedent.ContinueWith(async t => { await Task.Yield(); lock (log) log.Add(name); return $"{name}<-{t.Status}"; }, CancellationToken.None, options, TaskScheduler.Default).Unwrap();
        var continuations = new List<(string, Task<string>)>
        {
            ("ok OnlyOnRanToCompletion", Attach("a", ok, TaskContinuationOptions.OnlyOnRanToCompletion)),
            ("ok OnlyOnFaulted", Attach("b", ok, TaskContinuationOptions.OnlyOnFaulted)),
            ("bad OnlyOnFaulted", Attach("c", bad, TaskContinuationOptions.OnlyOnFaulted | TaskContinuationOptions.ExecuteSynchronously)),
            ("bad NotOnRanToCompletion", Attach("d", bad, TaskContinuationOptions.NotOnRanToCompletion)),
            ("canceled OnlyOnCanceled", Attach("e", canceled, TaskContinuationOptions.OnlyOnCanceled)),
            ("canceled NotOnCanceled", Attach("f", canceled, TaskContinuationOptions.NotOnCanceled)),
            ("canceled None", Attach("g", canceled, TaskContinuationOptions.None)),
        };
        cts.Cancel();
        gate.SetResult();
        foreach (var (name, c) in continuations)
        {
            try { Console.WriteLine($"  {name}: {await c}"); }
            catch (Exception e) { Console.WriteLine($"  {name}: {Shape(e)} status {c.Status}"); }
        }
        log.Sort(StringComparer.Ordinal);
        Console.WriteLine($"ran: {string.Join(",", log)}");
        using var lazy = new CancellationTokenSource();
        var gate2 = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var slow = Later(9, gate2);
        var lazyContinuation = slow.ContinueWith(t => t.Result * 2, lazy.Token, TaskContinuationOptions.LazyCancellation, TaskScheduler.Default);
        lazy.Cancel();
        Console.WriteLine($"lazy before antecedent: {lazyContinuation.IsCompleted}");
        gate2.SetResult();
        await slow;
        try { await lazyContinuation; } catch (OperationCanceledException e) { Console.WriteLine($"lazy: {e.GetType().Name} after antecedent {slow.Status}"); }
    }

    static async Task Main()
    {
        Identity();
        await Blocking();
        await Combinators();
        await Continuations();
    }
}
