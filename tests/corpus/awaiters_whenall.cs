// Task.WhenAll and Task.WhenAny over tasks produced by async methods of the program (started
// before being awaited, so several suspended chains run at once), faults aggregated by WhenAll,
// ValueTask results converted with AsTask, and results gathered in a deterministic order.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static int started;

    static async Task<int> Work(int id, int delay)
    {
        Interlocked.Increment(ref started);
        if (Suspend) await Task.Delay(delay);
        int v = id * 10;
        if (Suspend) await Task.Yield();
        return v + await Helper(id);
    }

    static async Task<int> Helper(int id)
    {
        if (Suspend) await Task.Yield();
        return id;
    }

    static async Task Fails(string message, int delay)
    {
        if (Suspend) await Task.Delay(delay);
        throw new InvalidOperationException(message);
    }

    static async ValueTask<string> Named(string name)
    {
        if (Suspend) await Task.Yield();
        return name.ToUpperInvariant();
    }

    static TaskCompletionSource<int> never = new TaskCompletionSource<int>();

    static async Task<int> Gate(Task<int> gate)
    {
        return await gate + 1;
    }

    static async Task<string> Scenario()
    {
        started = 0;
        var tasks = Enumerable.Range(1, 8).Select(i => Work(i, 1 + i % 3)).ToArray();
        int[] results = await Task.WhenAll(tasks);
        string s = $"all=[{string.Join(",", results)}] started={started}";

        var mixed = new List<Task> { Work(20, 2), Fails("first", 1), Fails("second", 3), Work(21, 1) };
        var all = Task.WhenAll(mixed);
        try { await all; }
        catch (Exception e) { s += $" caught {e.GetType().Name}"; }
        var messages = all.Exception!.InnerExceptions.Select(x => x.Message).OrderBy(m => m);
        s += $" inner=[{string.Join(",", messages)}]";

        var released = new TaskCompletionSource<int>();
        var pendingAny = Task.WhenAny(Gate(never.Task), Gate(released.Task), Gate(never.Task));
        s += $" anyBefore={pendingAny.IsCompleted}";
        released.SetResult(41);
        var winner = await pendingAny;
        s += $" winner={await winner}";
        var any = await Task.WhenAny(Gate(never.Task), Work(5, 1));
        s += $" any={await any}";

        var names = await Task.WhenAll(Named("a").AsTask(), Named("b").AsTask());
        s += $" names={string.Join("", names)}";
        await Task.WhenAll(Work(1, 1), Helper(2));
        return s;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Scenario());
        }
    }
}
