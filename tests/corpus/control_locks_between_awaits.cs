// Locks taken between awaits in rewritten methods (C# forbids an await inside a lock block): `lock`
// on a System.Threading.Lock (lowered to a Lock.Scope ref struct local in a method that also has
// suspending awaits), `lock` on a plain object (Monitor.Enter with a lockTaken flag in a
// try/finally), an exception filter that still sees both locks held (filters run before the
// lock blocks' finally clauses), re-entrant locking through a synchronous helper, a lock block that throws and must
// release before the catch awaits, locks inside catch and finally blocks that follow awaits, a
// loop alternating lock blocks and awaits, Monitor.IsEntered and Lock.IsHeldByCurrentThread checked
// after each resumption (the lock must never be held across one), and SemaphoreSlim as the async
// lock (WaitAsync with a zero timeout, Release in a finally that runs after an await). Four workers
// hammer a shared counter under each kind of lock; the totals are deterministic.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool s_suspend;
    static readonly Lock s_lock = new();
    static readonly object s_monitor = new();
    static readonly SemaphoreSlim s_gate = new(1, 1);
    static int s_counter;
    static readonly List<string> s_log = new();

    static async Task Tick()
    {
        if (s_suspend) await Task.Yield();
    }

    static async Task<T> Val<T>(T v) { await Tick(); return v; }

    static string Held() => $"lock={s_lock.IsHeldByCurrentThread} monitor={Monitor.IsEntered(s_monitor)}";

    static int ReenterLock(int depth)
    {
        lock (s_lock)
        {
            return depth == 0 ? 0 : 1 + ReenterLock(depth - 1);
        }
    }

    static int ReenterMonitor(int depth)
    {
        lock (s_monitor)
        {
            return depth == 0 ? 0 : 1 + ReenterMonitor(depth - 1);
        }
    }

    static async Task<string> Basics()
    {
        var parts = new List<string>();
        int a = 0, b = 0;
        lock (s_lock) { a = 1; }
        a += await Val(10);
        lock (s_lock) { a += ReenterLock(3); b = a; }
        parts.Add($"a={a} {Held()}");
        b += await Val(100);
        lock (s_monitor) { b += ReenterMonitor(2); }
        parts.Add($"b={b} {Held()}");
        using (s_lock.EnterScope()) { a *= 2; }
        await Tick();
        parts.Add($"scope a={a} {Held()}");
        for (int i = 0; i < 3; i++)
        {
            lock (s_lock) { a += i; }
            a += await Val(i);
            lock (s_monitor) { b -= i; }
        }
        parts.Add($"loop a={a} b={b} {Held()}");
        return string.Join(" | ", parts);
    }

    // Filters run in the first pass, before the lock blocks' finally clauses release the locks.
    static bool FilterSees(List<string> parts)
    {
        parts.Add($"filter sees {Held()}");
        return true;
    }

    static async Task<string> Exceptions()
    {
        var parts = new List<string>();
        try
        {
            int x = await Val(5);
            lock (s_lock)
            {
                if (x == 5) throw new InvalidOperationException("inside Lock");
            }
        }
        catch (InvalidOperationException e)
        {
            parts.Add($"caught {e.Message} {Held()}");
            await Tick();
            lock (s_monitor) { parts.Add($"relocked in catch {Monitor.IsEntered(s_monitor)}"); }
            parts.Add($"after catch await {Held()}");
        }
        try
        {
            lock (s_monitor)
            {
                lock (s_lock) { throw new TimeoutException("nested"); }
            }
        }
        catch (TimeoutException e) when (FilterSees(parts))
        {
            parts.Add($"caught {e.Message} {Held()}");
        }
        finally
        {
            await Tick();
            lock (s_lock) { parts.Add($"finally relock {s_lock.IsHeldByCurrentThread}"); }
        }
        bool entered = s_gate.Wait(0);
        bool second = await s_gate.WaitAsync(0);
        try
        {
            await Tick();
            parts.Add($"gate entered={entered} second={second} count={s_gate.CurrentCount}");
        }
        finally
        {
            await Tick();
            s_gate.Release();
        }
        parts.Add($"gate count after={s_gate.CurrentCount}");
        return string.Join("\n  ", parts);
    }

    static async Task Worker(int id, int rounds, string kind)
    {
        for (int i = 0; i < rounds; i++)
        {
            switch (kind)
            {
                case "Lock":
                    lock (s_lock) { s_counter++; }
                    break;
                case "Monitor":
                    lock (s_monitor) { s_counter += 2; }
                    break;
                case "Semaphore":
                    await s_gate.WaitAsync();
                    try { int read = s_counter; await Tick(); s_counter = read + 3; }
                    finally { s_gate.Release(); }
                    break;
            }
            if (i % 50 == 0) await Task.Yield(); else await Tick();
        }
        lock (s_log) { s_log.Add($"{kind}{id}"); }
    }

    static async Task<string> Hammer()
    {
        var parts = new List<string>();
        foreach (var kind in new[] { "Lock", "Monitor", "Semaphore" })
        {
            s_counter = 0;
            s_log.Clear();
            var workers = new List<Task>();
            for (int id = 0; id < 4; id++) { int w = id; workers.Add(Task.Run(() => Worker(w, 300, kind))); }
            await Task.WhenAll(workers);
            s_log.Sort(StringComparer.Ordinal);
            parts.Add($"{kind}: counter={s_counter} finished={string.Join(",", s_log)} {Held()}");
        }
        return string.Join("\n  ", parts);
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine($"  {await Basics()}");
            Console.WriteLine($"  {await Exceptions()}");
            Console.WriteLine($"  {await Hammer()}");
        }
    }
}
