// An exception thrown at the bottom of a deep synchronous descent of async methods, on a thread with
// a 1 MB stack, caught at every level by the program's own handlers, which throw it again or wrap
// it: `catch { ...; throw; }`, `throw new ...(e)`, a rethrow under a filter, after a nested
// try/catch in the handler, from one of several catch clauses, in a method that sets an AsyncLocal
// value, in a generic method, before a finally, inside a using, a lock or an outer try. Classic async's builder catches the exception in every method and the
// caller throws it again from a shallow stack; thrown inside each handler, it would take stack for
// every frame it passes. The orders of filters and finally blocks are printed for a short descent.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

sealed class LevelException(string message, Exception inner) : Exception(message, inner);

static class Program
{
    static readonly AsyncLocal<int> Depth = new();
    static int handled;
    static int finallysRun;
    static readonly List<string> trail = new();

    static async Task<long> Rethrows(int n)
    {
        if (n == 0)
            throw new InvalidOperationException("thrown at the bottom");
        try
        {
            return n + await Rethrows(n - 1);
        }
        catch (InvalidOperationException)
        {
            handled++;
            throw;
        }
    }

    static async Task<long> Wraps(int n)
    {
        if (n == 0)
            throw new InvalidOperationException("thrown at the bottom");
        try
        {
            return n + await Wraps(n - 1);
        }
        catch (Exception e)
        {
            handled++;
            throw new LevelException("level " + n, e);
        }
    }

    static async Task<long> RethrowsUnderFilter(int n)
    {
        if (n == 0)
            throw new InvalidOperationException("thrown at the bottom");
        try
        {
            return n + await RethrowsUnderFilter(n - 1);
        }
        catch (InvalidOperationException e) when (e.Message.Length > n % 2)
        {
            handled++;
            if (n >= 0)
                throw;
            return -1;
        }
        catch (Exception)
        {
            return -2;
        }
    }

    static async Task<long> LogsThenRethrows(int n)
    {
        if (n == 0)
            throw new InvalidOperationException("thrown at the bottom");
        try
        {
            return n + await LogsThenRethrows(n - 1);
        }
        catch (ArgumentException)
        {
            return -1;
        }
        catch (InvalidOperationException e)
        {
            try
            {
                if (e.Message.Length == 0)
                    throw new ArgumentException("never");
                handled++;
            }
            catch (ArgumentException)
            {
                return -2;
            }
            throw;
        }
    }

    static async Task<long> SetsValueThenRethrows(int n)
    {
        Depth.Value = n;
        if (n == 0)
            throw new InvalidOperationException("thrown at the bottom");
        try
        {
            return n + await SetsValueThenRethrows(n - 1);
        }
        catch (InvalidOperationException) when (Depth.Value == n)
        {
            handled++;
            throw;
        }
    }

    static async Task<T> Generic<T>(int n, T unit)
    {
        if (n == 0)
            throw new InvalidOperationException("thrown at the bottom");
        try
        {
            await Generic(n - 1, unit);
            return unit;
        }
        catch (InvalidOperationException e)
        {
            handled++;
            throw e.InnerException ?? e;
        }
    }

    // The try statement is the last thing in the region around it (a finally, a using, a lock, an
    // outer try), so what follows its handlers is that region's end or its handler.
    static async Task<long> RethrowsBeforeFinally(int n)
    {
        if (n == 0)
            throw new InvalidOperationException("thrown at the bottom");
        try
        {
            return n + await RethrowsBeforeFinally(n - 1);
        }
        catch (InvalidOperationException)
        {
            handled++;
            throw;
        }
        finally
        {
            finallysRun++;
        }
    }

    sealed class Counted : IDisposable
    {
        public void Dispose() => finallysRun++;
    }

    static readonly object gate = new();

    static async Task<long> RethrowsInUsingAndLock(int n)
    {
        if (n == 0)
            throw new InvalidOperationException("thrown at the bottom");
        long below;
        using (new Counted())
        {
            try
            {
                below = await RethrowsInUsingAndLock(n - 1);
            }
            catch (InvalidOperationException)
            {
                lock (gate)
                {
                    try
                    {
                        handled++;
                    }
                    catch (ArgumentException)
                    {
                        throw;
                    }
                }
                throw;
            }
        }
        return n + below;
    }

    static async Task<long> RethrowsInsideOuterTry(int n)
    {
        if (n == 0)
            throw new InvalidOperationException("thrown at the bottom");
        try
        {
            try
            {
                return n + await RethrowsInsideOuterTry(n - 1);
            }
            catch (InvalidOperationException)
            {
                handled++;
                throw;
            }
        }
        catch (ArgumentException)
        {
            return -1;
        }
    }

    static bool Note(string what, bool result)
    {
        trail.Add(what);
        return result;
    }

    // A short descent: the filter further out runs before the finally block around the rethrow in
    // the handler, and after those of the frames below, as in classic async.
    static async Task<long> Ordered(int n)
    {
        if (n == 0)
            throw new InvalidOperationException("thrown at the bottom");
        try
        {
            try
            {
                return n + await Ordered(n - 1);
            }
            catch (InvalidOperationException)
            {
                try
                {
                    trail.Add("handler " + n);
                    throw;
                }
                finally
                {
                    trail.Add("finally in handler " + n);
                }
            }
        }
        catch (InvalidOperationException) when (Note("filter " + n, n == 3))
        {
            return -n;
        }
    }

    static void OnSmallStack(string name, int depth, Func<int, Task<long>> method)
    {
        handled = 0;
        finallysRun = 0;
        string outcome = "";
        var thread = new Thread(() =>
        {
            Depth.Value = -1;
            try
            {
                outcome = "returned " + method(depth).GetAwaiter().GetResult();
            }
            catch (Exception e)
            {
                int inner = 0;
                for (var x = e.InnerException; x is not null; x = x.InnerException)
                    inner++;
                outcome = $"caught {e.GetType().Name} '{e.Message}' with {inner} inner, value={Depth.Value}";
            }
        }, 1024 * 1024);
        thread.Start();
        thread.Join();
        Console.WriteLine($"{name}, {depth} deep: {outcome}; handled={handled} finally blocks run={finallysRun}");
    }

    static void Main()
    {
        foreach (var depth in new[] { 10, 300, 2000 })
        {
            OnSmallStack("rethrows", depth, Rethrows);
            OnSmallStack("wraps", depth, Wraps);
            OnSmallStack("rethrows under a filter", depth, RethrowsUnderFilter);
            OnSmallStack("logs, then rethrows", depth, LogsThenRethrows);
            OnSmallStack("sets a value, then rethrows", depth, SetsValueThenRethrows);
            OnSmallStack("generic", depth, n => Generic<long>(n, 7));
            OnSmallStack("rethrows before a finally", depth, RethrowsBeforeFinally);
            OnSmallStack("rethrows in a using and a lock", depth, RethrowsInUsingAndLock);
            OnSmallStack("rethrows inside an outer try", depth, RethrowsInsideOuterTry);
        }
        OnSmallStack("ordered", 5, Ordered);
        Console.WriteLine(string.Join(" | ", trail));
    }
}
