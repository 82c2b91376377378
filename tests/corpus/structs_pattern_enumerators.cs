// Pattern-based async enumeration and disposal on mutable structs held by rewritten methods across
// awaits: a struct enumerator (no interface) whose MoveNextAsync is non-async and mutates the
// struct before returning a ValueTask<bool> from a rewritten helper, reached through a
// GetAsyncEnumerator extension method; `await foreach` with break, continue, return and a throw;
// a pattern `await using` on a struct whose DisposeAsync prints the state the body left in the
// local (it must be the local, not a copy taken before an await); ConfigureAwait(false) on the
// struct sequence; and a generic struct enumerator over T.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

struct Range3
{
    public int Start, Count;
    public Range3(int start, int count) { Start = start; Count = count; }
}

struct RangeEnumerator
{
    private int next;
    private readonly int end;
    public int Moves;
    public string Tag;

    public RangeEnumerator(int start, int count) { next = start - 1; end = start + count; Moves = 0; Tag = "r" + start; }

    public int Current => next;

    public ValueTask<bool> MoveNextAsync()
    {
        Moves++;
        next++;
        return Program.Answer(next < end);
    }

    public ValueTask DisposeAsync()
    {
        Program.Log($"dispose {Tag} moves={Moves} at={next}");
        return Program.PauseVT();
    }
}

static class RangeExtensions
{
    public static RangeEnumerator GetAsyncEnumerator(this Range3 r) => new RangeEnumerator(r.Start, r.Count);
}

struct Scope
{
    public int Writes;
    public string Name;
    public List<string>? Notes;

    public Scope(string name) { Name = name; Writes = 0; Notes = null; }

    public void Write(string s) { Writes++; (Notes ??= new()).Add(s); }

    public async ValueTask DisposeAsync()
    {
        // works on a copy taken at entry (async struct method), so it reads what the caller had
        await Program.Pause();
        Program.Log($"scope {Name} disposed writes={Writes} notes={(Notes == null ? "none" : string.Join("+", Notes))}");
        Writes = -100;
    }
}

struct ItemsEnumerator<T>
{
    private readonly T[] items;
    private int index;
    public ItemsEnumerator(T[] items) { this.items = items; index = -1; }
    public T Current => items[index];
    public async ValueTask<bool> MoveNextAsync()
    {
        // an async struct method works on a copy: it cannot advance the enumerator; the caller
        // below advances it through Advance() instead.
        await Program.Pause();
        return index + 1 < items.Length;
    }
    public void Advance() => index++;
}

struct Items<T>
{
    public T[] Values;
    public ItemsCursor<T> GetAsyncEnumerator() => new ItemsCursor<T>(Values);
}

struct ItemsCursor<T>
{
    private ItemsEnumerator<T> inner;
    public int Steps;
    public ItemsCursor(T[] values) { inner = new ItemsEnumerator<T>(values); Steps = 0; }
    public T Current => inner.Current;
    public async ValueTask<bool> MoveNextAsync()
    {
        // async on a struct: the copy is advanced, not the caller's. Classic behaves the same;
        // the sequence is therefore consumed with a manual loop below.
        await Program.Pause();
        return true;
    }
    public ValueTask<bool> StepAsync()
    {
        Steps++;
        var vt = inner.MoveNextAsync();
        inner.Advance();
        return vt;
    }
}

static class Program
{
    public static bool Suspend;
    static readonly List<string> log = new();
    public static void Log(string s) => log.Add(s);

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    public static async ValueTask PauseVT()
    {
        if (Suspend) await Task.Yield();
    }

    public static async ValueTask<bool> Answer(bool b)
    {
        if (Suspend) await Task.Yield();
        return b;
    }

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<string> SumAll()
    {
        int sum = 0;
        await foreach (var i in new Range3(3, 4))
        {
            sum += await Value(i);
        }
        return "sum " + sum;
    }

    static async Task<string> BreakContinue()
    {
        var parts = new List<int>();
        await foreach (var i in new Range3(1, 10))
        {
            if (i % 2 == 0) { await Pause(); continue; }
            if (i > 6) break;
            parts.Add(await Value(i * 10));
        }
        return string.Join(",", parts);
    }

    static async Task<int> ReturnFromLoop()
    {
        await foreach (var i in new Range3(5, 10))
        {
            var v = await Value(i);
            if (v == 8) return v * 100;
        }
        return -1;
    }

    static async Task<string> ThrowFromLoop()
    {
        try
        {
            await foreach (var i in new Range3(20, 5))
            {
                await Pause();
                if (i == 22) throw new InvalidOperationException("at " + i);
            }
            return "no throw";
        }
        catch (InvalidOperationException e)
        {
            await Pause();
            return "caught " + e.Message;
        }
    }

    static async Task<string> Configured()
    {
        int n = 0;
        // ConfigureAwait on a pattern type needs the interface; use an explicit loop instead
        var e = new Range3(0, 3).GetAsyncEnumerator();
        try
        {
            while (await e.MoveNextAsync().ConfigureAwait(false))
            {
                n += e.Current + await Value(1).ConfigureAwait(false);
            }
        }
        finally
        {
            await e.DisposeAsync().ConfigureAwait(false);
        }
        return $"configured n={n} moves={e.Moves}";
    }

    static async Task<string> Nested()
    {
        var parts = new List<string>();
        await foreach (var a in new Range3(1, 2))
        {
            await foreach (var b in new Range3(a * 10, 2))
            {
                parts.Add(a + ":" + await Value(b));
            }
        }
        return string.Join(" ", parts);
    }

    static async Task<string> UsingScope()
    {
        await using (var s = new Scope("outer"))
        {
            s.Write("a");
            await Pause();
            s.Write(await Value(2).ContinueWith(t => "b" + t.Result));
            await using var inner = new Scope("inner");
            inner.Write("x");
            await Pause();
            s.Write("c");
            inner.Write("y");
        }
        return "using done";
    }

    static async Task<string> UsingScopeThrows()
    {
        try
        {
            await using var s = new Scope("throwing");
            s.Write("1");
            await Pause();
            s.Write("2");
            if (await Value(1) == 1) throw new FormatException("boom");
            s.Write("3");
        }
        catch (FormatException e)
        {
            return "caught " + e.Message;
        }
        return "not reached";
    }

    static async Task<string> GenericCursor<T>(T[] values)
    {
        var items = new Items<T> { Values = values };
        var cursor = items.GetAsyncEnumerator();
        var parts = new List<string>();
        while (await cursor.StepAsync())
        {
            await Pause();
            parts.Add(cursor.Current + "/" + typeof(T).Name);
        }
        return string.Join(" ", parts) + " steps=" + cursor.Steps;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"--- suspend={suspend}");
            Console.WriteLine(await SumAll());
            Console.WriteLine(await BreakContinue());
            Console.WriteLine(await ReturnFromLoop());
            Console.WriteLine(await ThrowFromLoop());
            Console.WriteLine(await Configured());
            Console.WriteLine(await Nested());
            Console.WriteLine(await UsingScope());
            Console.WriteLine(await UsingScopeThrows());
            Console.WriteLine(await GenericCursor(new[] { 1, 2, 3 }));
            Console.WriteLine(await GenericCursor(new[] { "x", "y" }));
            Console.WriteLine(await GenericCursor(new int?[] { 5, null }));
            foreach (var l in log) Console.WriteLine("  " + l);
            log.Clear();
        }
    }
}
