// Mutable struct locals that the compiler keeps for the whole of a statement, with awaits inside:
// foreach over a user struct enumerator (pattern-based, and through an extension GetEnumerator on a
// type that has none) whose MoveNext counts calls, so that the enumerator restored after a
// suspension must be the advanced one, and whose Dispose prints what the disposed copy saw (it
// must be the local itself, not a copy taken before an await); break, continue, return and an
// exception leaving such loops; a `using` over a mutable struct disposable (the resource variable
// is readonly: calls on it mutate copies, Dispose sees the original) and a `using` declaration over
// a struct mutated through a ref-returning helper; List<T> modified after an await inside foreach
// (the version check throws at the next MoveNext); Dictionary enumerated across awaits.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

struct Counter
{
    readonly int _end;
    int _current;
    public int Moves;
    public Counter(int end) { _end = end; _current = 0; Moves = 0; }
    public int Current => _current;
    public bool MoveNext() { Moves++; return ++_current <= _end; }
    public Counter GetEnumerator() => this;
}

struct DisposingCounter : IDisposable
{
    readonly int _end;
    int _current;
    public int Moves;
    public DisposingCounter(int end) { _end = end; _current = 0; Moves = 0; }
    public int Current => _current;
    public bool MoveNext() { Moves++; return ++_current <= _end; }
    public void Dispose() => Program.Log($"dispose at {_current} after {Moves} moves");
}

sealed class Range3 { public int Start; }

static class Extensions
{
    public static DisposingCounter GetEnumerator(this Range3 range) => new DisposingCounter(range.Start + 3);
}

struct Tally : IDisposable
{
    public int Count;
    public string Name;
    public void Add(int n) { Count += n; }
    public void Dispose() => Program.Log($"{Name} disposed with count {Count}");
}

static class Program
{
    static bool Suspend;
    static readonly List<string> log = new();
    public static void Log(string s) => log.Add(s);

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task Fail(string m)
    {
        if (Suspend) await Task.Yield();
        throw new InvalidOperationException(m);
    }

    static async Task<string> PatternEnumerator()
    {
        string s = "";
        foreach (var i in new Counter(5))
        {
            s += await Value(i);
            if (i == 2) continue;
            s += ".";
        }
        return s;
    }

    static async Task<string> DisposableEnumerator(int stopAt, bool throwAt)
    {
        string s = "";
        try
        {
            foreach (var i in new Range3 { Start = 2 })
            {
                s += await Value(i);
                if (i == stopAt)
                {
                    if (throwAt) await Fail("at " + i);
                    break;
                }
                await Value(0);
                s += ",";
            }
        }
        catch (InvalidOperationException e)
        {
            s += " caught " + e.Message;
        }
        return s;
    }

    static async Task<int> ReturnFromLoop()
    {
        foreach (var i in new Range3 { Start = 10 })
        {
            if (await Value(i) == 12)
                return i * 100;
        }
        return -1;
    }

    static async Task<string> ManualEnumerator()
    {
        var e = new Counter(3);
        string s = "";
        while (e.MoveNext())
        {
            s += await Value(e.Current);
            var copy = e;
            copy.MoveNext();
            s += $"({copy.Current}/{e.Moves})";
        }
        return s + " moves=" + e.Moves;
    }

    static async Task<string> UsingReadonlyResource()
    {
        using (var t = new Tally { Name = "stmt" })
        {
            t.Add(await Value(5));
            await Value(0);
            t.Add(1);
            return "count seen in body " + t.Count;
        }
    }

    static ref Tally Ref(ref Tally t) => ref t;

    static async Task<string> UsingDeclaration()
    {
        var holder = new Tally { Name = "holder" };
        holder.Add(await Value(3));
        int four = await Value(4);
        Ref(ref holder).Add(four);
        using var d = new Tally { Name = "decl", Count = holder.Count };
        await Value(0);
        return "holder " + holder.Count + " decl " + d.Count;
    }

    static async Task<string> ListModifiedDuringForeach()
    {
        var list = new List<int> { 1, 2, 3 };
        string s = "";
        try
        {
            foreach (var x in list)
            {
                s += await Value(x);
                if (x == 2) list.Add(await Value(9));
            }
        }
        catch (InvalidOperationException)
        {
            s += " version check";
        }
        return s + " count=" + list.Count;
    }

    static async Task<string> DictionaryAcrossAwaits()
    {
        var d = new Dictionary<string, int> { ["a"] = 1, ["b"] = 2, ["c"] = 3 };
        int sum = 0;
        string keys = "";
        foreach (var (k, v) in d)
        {
            keys += k;
            sum += await Value(v) * 10;
            d[k] = v + 1; // overwriting an existing key does not invalidate the enumerator
        }
        foreach (var kv in d)
            sum += kv.Value;
        return keys + " " + sum;
    }

    static async Task<string> NestedStructLoops()
    {
        string s = "";
        foreach (var i in new Counter(3))
        {
            foreach (var j in new Range3 { Start = i - 2 })
            {
                if (j > i) break;
                s += $"{i}{await Value(j)} ";
            }
        }
        return s;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine("PatternEnumerator " + await PatternEnumerator());
            foreach (var (stop, thr) in new[] { (3, false), (4, true), (9, false) })
            {
                log.Clear();
                Console.WriteLine($"DisposableEnumerator({stop},{thr}) {await DisposableEnumerator(stop, thr)} [{string.Join("; ", log)}]");
            }
            log.Clear();
            Console.WriteLine($"ReturnFromLoop {await ReturnFromLoop()} [{string.Join("; ", log)}]");
            Console.WriteLine("ManualEnumerator " + await ManualEnumerator());
            log.Clear();
            Console.WriteLine($"UsingReadonlyResource {await UsingReadonlyResource()} [{string.Join("; ", log)}]");
            log.Clear();
            Console.WriteLine($"UsingDeclaration {await UsingDeclaration()} [{string.Join("; ", log)}]");
            Console.WriteLine("ListModifiedDuringForeach " + await ListModifiedDuringForeach());
            Console.WriteLine("DictionaryAcrossAwaits " + await DictionaryAcrossAwaits());
            log.Clear();
            Console.WriteLine($"NestedStructLoops {await NestedStructLoops()} [{string.Join("; ", log)}]");
        }
    }
}
