// OperationCanceledException and TaskCanceledException leaving an async method give a Canceled task
// (not Faulted) through the Task thunk, thrown before or after a suspension, from nested callees, for
// Task, Task<T>, ValueTask and ValueTask<T>; the exception's token is kept; other exceptions fault;
// awaiting a canceled task throws TaskCanceledException and Wait() an AggregateException around it.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task Pause()
    {
        if (Suspend) await Task.Delay(1);
    }

    static async Task ThrowsOce(bool afterSuspending, CancellationToken token)
    {
        if (afterSuspending) await Pause();
        throw new OperationCanceledException("oce", token);
    }

    static async Task<int> ThrowsTce(bool afterSuspending)
    {
        if (afterSuspending) await Pause();
        throw new TaskCanceledException("tce");
    }

    static async ValueTask ValueTaskOce(bool afterSuspending, CancellationToken token)
    {
        if (afterSuspending) await Pause();
        token.ThrowIfCancellationRequested();
    }

    static async ValueTask<string> ValueTaskOfT(bool afterSuspending, CancellationToken token)
    {
        await ValueTaskOce(afterSuspending, token);
        return "unreachable";
    }

    static async Task<int> Nested(bool afterSuspending, CancellationToken token)
    {
        await ThrowsOce(afterSuspending, token);
        return 1;
    }

    static async Task Faults(bool afterSuspending)
    {
        if (afterSuspending) await Pause();
        throw new InvalidOperationException("not a cancellation");
    }

    static void Show(string name, Task task, CancellationToken expected)
    {
        try { task.Wait(); }
        catch (AggregateException) { }
        string line = $"{name}: {task.Status}";
        if (task.IsFaulted)
            line += " " + task.Exception!.InnerException!.GetType().Name;
        try
        {
            task.GetAwaiter().GetResult();
        }
        catch (OperationCanceledException e)
        {
            line += $", await throws {e.GetType().Name} '{e.Message}' token matches {(e.CancellationToken == expected).ToString().ToLowerInvariant()}";
        }
        catch (Exception e)
        {
            line += $", await throws {e.GetType().Name} '{e.Message}'";
        }
        try { task.Wait(); }
        catch (AggregateException e) { line += $", Wait throws Aggregate of {e.InnerExceptions.Count} {e.InnerException!.GetType().Name}"; }
        Console.WriteLine(line);
    }

    static void Main()
    {
        var source = new CancellationTokenSource();
        source.Cancel();
        var token = source.Token;
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var after in new[] { false, true })
            {
                Console.WriteLine($" after suspending: {after}");
                Show("oce", ThrowsOce(after, token), token);
                Show("oce none", ThrowsOce(after, CancellationToken.None), token);
                Show("tce", ThrowsTce(after), token);
                Show("valuetask", ValueTaskOce(after, token).AsTask(), token);
                Show("valuetask<T>", ValueTaskOfT(after, token).AsTask(), token);
                Show("nested", Nested(after, token), token);
                Show("faults", Faults(after), token);
            }
        }
    }
}
