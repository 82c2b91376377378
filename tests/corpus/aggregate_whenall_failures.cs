// Task.WhenAll over rewritten methods with several failures: the WhenAll task's AggregateException
// holds every inner exception in the order the tasks completed (.NET 10; WhenAllInTurn makes that the
// task order, which a suspension would otherwise leave to a race), awaiting it throws the first, Wait() throws the whole
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

    // One WhenAll over tasks that each start only once WhenAll has recorded the one before as
    // completed: its completion action on a task runs before a continuation registered after it,
    // so they complete in task order in every async model, however the machine schedules them.
    // (Started when the one before completed, a task could finish first while the thread completing
    // the one before was preempted before WhenAll's action ran: seen once, on a loaded machine.)
    static Task WhenAllInTurn(params Func<Task>[] starts)
    {
        var gates = starts.Select(_ => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).ToArray();
        var tasks = starts.Select((start, i) => AfterGate(gates[i].Task, start)).ToArray();
        var all = Task.WhenAll(tasks);
        for (int i = 0; i + 1 < tasks.Length; i++)
        {
            var next = gates[i + 1];
            tasks[i].ContinueWith(_ => next.SetResult(), TaskContinuationOptions.ExecuteSynchronously);
        }
        gates[0].SetResult();
        return all;
    }

    static async Task AfterGate(Task gate, Func<Task> start)
    {
        if (Suspend)
            await gate;
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
            await Report("three of five fail", WhenAllInTurn(Enumerable.Range(0, 5).Select(i => (Func<Task>)(() => Work(i, i % 2 == 0))).ToArray()));
            await Report("none fail", Task.WhenAll(Work(1, false), Work(2, false)));
            await Report("canceled and faulted", WhenAllInTurn(() => Cancels(1), () => Work(2, true), () => Cancels(3)));
            // Both cancel with the same message: which one WhenAll reports depends on which
            // completes first, a race when they suspend (classic async shows either, too).
            await Report("all canceled", Task.WhenAll(Cancels(1), Cancels(1)));
            await Report("method throws aggregate", ThrowsAggregate());
            await Report("whenall of aggregate thrower", WhenAllInTurn(ThrowsAggregate, () => Work(4, true)));
            await Report("valuetasks", WhenAllInTurn(Enumerable.Range(1, 4).Select(i => (Func<Task>)(() => ValueTaskWork(i).AsTask())).ToArray()));
            try { ThrowsAggregate().Wait(); }
            catch (AggregateException e) { Console.WriteLine("flattened: " + Describe(e.Flatten())); }
            var any = await Task.WhenAny(Work(0, true), Work(1, true));
            Console.WriteLine("WhenAny first faulted: " + any.IsFaulted.ToString().ToLowerInvariant());
        }
    }
}
