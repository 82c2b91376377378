// ExceptionDispatchInfo and rethrow semantics through rewritten methods: the very same exception
// object arrives at the awaiting caller after suspensions, `throw;` after an await in a catch keeps
// it, ExceptionDispatchInfo.Capture(...).Throw() from an async method, a captured dispatch info
// rethrown later by another method, Data entries added on the way out, and the inner exception chain.
using System;
using System.Runtime.ExceptionServices;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static Exception? original;
    static ExceptionDispatchInfo? saved;

    static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task Origin()
    {
        await Pause();
        original = new InvalidOperationException("origin", new FormatException("cause"));
        throw original;
    }

    static async Task Rethrows()
    {
        try
        {
            await Origin();
        }
        catch (InvalidOperationException e)
        {
            await Pause();
            e.Data["passed"] = "Rethrows";
            throw;
        }
    }

    static async Task Captures()
    {
        try
        {
            await Rethrows();
        }
        catch (Exception e)
        {
            saved = ExceptionDispatchInfo.Capture(e);
        }
        await Pause();
        saved!.Throw();
    }

    static async Task<int> ThrowsSaved()
    {
        await Pause();
        saved!.Throw();
        return 0;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            try
            {
                await Captures();
            }
            catch (Exception e)
            {
                Console.WriteLine($"caught {e.GetType().Name} '{e.Message}' same object {ReferenceEquals(e, original).ToString().ToLowerInvariant()} data {e.Data["passed"]} inner {e.InnerException?.GetType().Name}:{e.InnerException?.Message}");
            }
            var task = ThrowsSaved();
            try { await task; }
            catch (Exception e) { Console.WriteLine($"second rethrow same object {ReferenceEquals(e, original).ToString().ToLowerInvariant()}, task {task.Status}, task.Exception inner same {ReferenceEquals(task.Exception!.InnerException, original).ToString().ToLowerInvariant()}"); }
        }
    }
}
