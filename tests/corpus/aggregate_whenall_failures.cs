// Task.WhenAll over rewritten methods with several failures: the WhenAll task's AggregateException
// holds every inner exception in the order the tasks completed (.NET 10; InTurn makes that the task
// order, which a suspension would otherwise leave to a race), awaiting it throws the first, Wait() throws the whole
// aggregate; canceled and faulted tasks mixed give Faulted (and all-canceled gives Canceled); an
// async method throwing an AggregateException itself; Flatten over nested aggregates; WhenAll of
// ValueTask-returning methods through AsTask; failures before and after suspension alike.
using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> Work(int id, bool fail)
    {
        if (Suspend) await Task.Delay(3 - id % 3);
        if (fail) throw new InvalidOperationException("failure " + id);
        return id;
    }

    static async Task Cancels(int id)
    {
        if (Suspend) await Task.Yield();
        throw new OperationCanceledException("canceled " + id);
    }

    static async Task ThrowsAggregate()
    {
        if (Suspend) await Task.Yield();
        throw new AggregateException("outer", new ArgumentException("a1"), new AggregateException("inner", new FormatException("f1")));
    }

    static async ValueTask<int> ValueTaskWork(int id)
    {
        if (Suspend) await Task.Yield();
        if (id % 2 == 0) throw new ArgumentException("vt " + id);
        return id;
    }

    // The tasks given to one WhenAll, each started only once the one before it has completed, so
    // that they complete in task order in every async model, however the machine schedules them.
    static Task s_last = Task.CompletedTask;

    static Task InTurn(Func<Task> start) => s_last = AfterPrevious(s_last, start);

    static async Task AfterPrevious(Task previous, Func<Task> start)
    {
        if (Suspend)
            await previous.ContinueWith(static _ => { }, TaskScheduler.Default);
        await start();
    }

    static string Describe(AggregateException e) =>
        $"{e.InnerExceptions.Count} inner [{string.Join(", ", e.InnerExceptions.Select(i => i.GetType().Name + ":" + i.Message))}]";

    static async Task Report(string name, Task all)
    {
        try
        {
            await all;
            Console.WriteLine($"{name}: completed");
        }
        catch (Exception e)
        {
            Console.WriteLine($"{name}: await threw {e.GetType().Name} '{e.Message}', status {all.Status}");
            if (all.Exception is { } aggregate)
                Console.WriteLine($"  task.Exception: {Describe(aggregate)}");
            try { all.Wait(); }
            catch (AggregateException waited) { Console.WriteLine($"  Wait threw {Describe(waited)}"); }
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            await Report("three of five fail", Task.WhenAll(Enumerable.Range(0, 5).Select(i => InTurn(() => Work(i, i % 2 == 0))).ToArray()));
            await Report("none fail", Task.WhenAll(Work(1, false), Work(2, false)));
            await Report("canceled and faulted", Task.WhenAll(InTurn(() => Cancels(1)), InTurn(() => Work(2, true)), InTurn(() => Cancels(3))));
            // Both cancel with the same message: which one WhenAll reports depends on which
            // completes first, a race when they suspend (classic async shows either, too).
            await Report("all canceled", Task.WhenAll(Cancels(1), Cancels(1)));
            await Report("method throws aggregate", ThrowsAggregate());
            await Report("whenall of aggregate thrower", Task.WhenAll(InTurn(ThrowsAggregate), InTurn(() => Work(4, true))));
            await Report("valuetasks", Task.WhenAll(Enumerable.Range(1, 4).Select(i => InTurn(() => ValueTaskWork(i).AsTask())).ToArray()));
            try { ThrowsAggregate().Wait(); }
            catch (AggregateException e) { Console.WriteLine("flattened: " + Describe(e.Flatten())); }
            var any = await Task.WhenAny(Work(0, true), Work(1, true));
            Console.WriteLine("WhenAny first faulted: " + any.IsFaulted.ToString().ToLowerInvariant());
        }
    }
}
