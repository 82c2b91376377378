// Compiled into every program the fuzzer generates, classic and runtime-async alike (with
// tests/corpus/support). Generated cases fold everything they do into a Trace; the helpers here
// complete tasks on other threads without making any output depend on timing or thread identity.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

sealed class FuzzException(int code) : Exception("fuzz " + code)
{
    public int Code { get; } = code;
}

/// <summary>
/// What one case did, in order. Code running concurrently (WhenAll branches, a call awaited later)
/// writes to its own forked trace, joined back once it has finished, so no output depends on interleaving.
/// </summary>
sealed class Trace
{
    private const int ShownLength = 2000;
    private readonly StringBuilder shown = new();
    private int entries;
    private uint hash = 2166136261;

    public void Log(string label, object? value = null)
    {
        var entry = value is null ? label : label + "=" + value;
        entries++;
        foreach (var c in entry)
            hash = (hash ^ c) * 16777619;
        hash = (hash ^ ' ') * 16777619;
        if (shown.Length < ShownLength)
            shown.Append(entry).Append(' ');
    }

    public Trace Fork() => new();

    public void Join(params Trace[] children)
    {
        foreach (var child in children)
            Log("[" + child + "]");
    }

    // Long traces are cut, but the count and hash still cover every entry.
    public override string ToString() => shown.ToString().TrimEnd() + (shown.Length >= ShownLength ? $" ...({entries} entries, #{hash:x8})" : "");
}

/// <summary>A using resource that logs its disposal.</summary>
sealed class Resource(Trace trace, int id) : IDisposable
{
    public void Dispose() => trace.Log("dispose" + id);
}

/// <summary>An await using resource whose disposal suspends.</summary>
sealed class AsyncResource(Trace trace, int id) : IAsyncDisposable
{
    public async ValueTask DisposeAsync()
    {
        await Task.Yield();
        trace.Log("disposeAsync" + id);
    }
}

// Values that stay on the evaluation stack across an await with a static type that comes from a join
// (Generator.JoinAcrossAwait): sealed classes with a common base and a base with a sealed derived class,
// whose wrongly typed spill would let the optimizing JIT devirtualize a call or fold a type test; an
// interface implemented by unrelated classes; enums over byte, sbyte and long; a struct mutated in place.
interface IVoice
{
    string Speak(int k);
}

abstract class Animal : IVoice
{
    public abstract string Sound();
    public virtual string Say(int k) => Sound() + k;
    public string Speak(int k) => "animal " + Say(k);
}

sealed class Cat : Animal
{
    public override string Sound() => "meow";
}

sealed class Dog : Animal
{
    public override string Sound() => "woof";
    public override string Say(int k) => "WOOF" + k;
}

sealed class Robot : IVoice
{
    public string Speak(int k) => "beep" + k;
}

class Widget
{
    public virtual string Draw(int k) => "widget" + k;
}

sealed class FancyWidget : Widget
{
    public override string Draw(int k) => "FANCY" + k;
}

// A generic base class: the common base of IntKeeper and AnyKeeper<int> is Keeper<int>, found
// through the base type's generic arguments, and of AnyKeeper<U> and LastKeeper<U> Keeper<U>.
abstract class Keeper<T>
{
    public abstract string Keep(T value);
}

sealed class IntKeeper : Keeper<int>
{
    public override string Keep(int value) => "int " + value;
}

sealed class AnyKeeper<T> : Keeper<T>
{
    public override string Keep(T value) => "any " + typeof(T).Name + " " + value;
}

sealed class LastKeeper<T> : Keeper<T>
{
    public override string Keep(T value) => "last " + value;
}

enum Small : byte { A = 1, B = 200 }

enum Tiny : sbyte { Low = -100, High = 100 }

enum Wide : long { A = 1, B = 1L << 40 }

struct Tally
{
    public int Count;
    public long Sum;

    public void Bump(int value)
    {
        Count++;
        Sum += value;
    }

    public override string ToString() => $"{Count}/{Sum}";
}

sealed class Cell
{
    public int Value;
    public byte Low;
}

static class Fuzz
{
    /// <summary>A task completed by a thread started now: the awaiter may or may not find it complete.</summary>
    public static Task<int> FromOtherThread(int value, bool continueAsynchronously)
    {
        var source = new TaskCompletionSource<int>(continueAsynchronously ? TaskCreationOptions.RunContinuationsAsynchronously : TaskCreationOptions.None);
        new Thread(() => source.SetResult(value)) { IsBackground = true }.Start();
        return source.Task;
    }

    public static Task<int> FailFromOtherThread(int code)
    {
        var source = new TaskCompletionSource<int>();
        new Thread(() => source.SetException(new FuzzException(code))) { IsBackground = true }.Start();
        return source.Task;
    }

    public static void CancelFromOtherThread(CancellationTokenSource source) =>
        new Thread(source.Cancel) { IsBackground = true }.Start();

    public static int Mix(int a, int b, int c) => unchecked(a * 31 + b * 7 + c);

    public static async Task<int> Yielded(int value)
    {
        await Task.Yield();
        return value % 7;
    }

    public static Task<int> Faulted(int code) => Task.FromException<int>(new FuzzException(code));

    public static async IAsyncEnumerable<int> Range(int count)
    {
        for (int i = 0; i < count; i++)
        {
            await Task.Yield();
            yield return i;
        }
    }

    // Typed awaitables for values other than int: completed, completed after a yield, completed on another thread.
    public static Task<T> Now<T>(T value) => Task.FromResult(value);

    public static async Task<T> Later<T>(T value)
    {
        await Task.Yield();
        return value;
    }

    public static Task<T> Elsewhere<T>(T value)
    {
        var source = new TaskCompletionSource<T>();
        new Thread(() => source.SetResult(value)) { IsBackground = true }.Start();
        return source.Task;
    }

    public static readonly Widget Plain = new();

    // The consumers of a value spilled across an await. Inlined into the awaiting method, so the static
    // type the spill gave the value reaches their type tests, GetType and virtual calls, which the
    // optimizing JIT folds and devirtualizes when that type is a sealed class.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static string Show(object? o, int k) =>
        o is null ? "null" + k : o.GetType().Name + ":" + o + (o is Dog ? ":dog" : o is Cat ? ":cat" : o is string ? ":string" : "") + k;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static string Pair<T>(T value, int k) => value + "|" + k;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static string Hear(Animal a, int k) => a.GetType().Name + " " + a.Say(k) + (a is Dog ? " dog" : "");

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static string Paint(Widget w, int k) => w.Draw(k) + (w is FancyWidget ? " fancy" : "");

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static string Listen(IVoice v, int k) => v.GetType().Name + " " + v.Speak(k) + (v is Robot ? " robot" : "");

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static string Kept<T>(Keeper<T> keeper, T value) =>
        keeper.GetType().Name + " " + keeper.Keep(value) + (keeper is IntKeeper ? " int" : keeper is AnyKeeper<T> ? " any" : "");

    public static string Describe(Exception e) => e switch
    {
        FuzzException fuzz => "Fuzz" + fuzz.Code,
        // The message tells a wrapping throw from the exception it wraps.
        AltException alt => $"{alt.GetType().Name}({alt.Message})",
        _ => e.GetType().Name,
    };
}

// Control flow around awaits (Generator.ControlFlow.cs): a second exception hierarchy, so catch
// clauses can be ordered by type; enumerators and disposables that run code (logged, sometimes
// throwing) when a loop or using block is left early; members whose getters and setters log, so
// the order of a compound assignment's reads and writes around its await shows.
class AltException(int code, string what = "alt") : Exception(what + " " + code)
{
    public int Code { get; } = code;
}

sealed class SubAltException(int code) : AltException(code, "sub");

static class Flow
{
    /// <summary>For filters: logs that it was evaluated and what it decided, so the order of filters against finally blocks shows.</summary>
    public static bool Note(Trace t, string label, bool result)
    {
        t.Log(label + (result ? "+" : "-"));
        return result;
    }

    /// <summary>A synchronous iterator whose finally logs: it runs on break, return and throw out of the foreach.</summary>
    public static IEnumerable<int> Items(Trace t, int count, int throwAt)
    {
        try
        {
            for (int i = 0; i < count; i++)
            {
                if (i == throwAt)
                    throw new AltException(900 + i, "items");
                yield return i * 10;
            }
        }
        finally
        {
            t.Log("itemsEnd");
        }
    }

    /// <summary>
    /// An async iterator (a classic state machine under runtime-async too) that throws before or after
    /// an await, and awaits in its finally, which an early exit runs through DisposeAsync.
    /// </summary>
    public static async IAsyncEnumerable<int> Stream(Trace t, int count, int throwAt, bool throwAfterAwait)
    {
        try
        {
            for (int i = 0; i < count; i++)
            {
                if (i == throwAt && !throwAfterAwait)
                    throw new AltException(800 + i, "stream");
                await Task.Yield();
                if (i == throwAt)
                    throw new SubAltException(850 + i);
                yield return i;
            }
        }
        finally
        {
            t.Log("streamEnd");
            await Task.Yield();
            t.Log("streamEnd2");
        }
    }
}

/// <summary>A collection with a struct enumerator whose Dispose logs (foreach calls it on the copy it holds).</summary>
readonly struct Bag(Trace t, int count)
{
    public BagEnumerator GetEnumerator() => new(t, count);
}

struct BagEnumerator(Trace t, int count) : IDisposable
{
    private int index = -1;
    public int Current => index * 3;
    public bool MoveNext() => ++index < count;
    public void Dispose() => t.Log("bagDispose", index);
}

/// <summary>An async enumerable whose enumerator's MoveNextAsync and DisposeAsync are async methods, rewritten with the program.</summary>
sealed class Feed(Trace t, int count, int throwAt, bool throwInDispose) : IAsyncEnumerable<int>
{
    public IAsyncEnumerator<int> GetAsyncEnumerator(CancellationToken token = default) => new Enumerator(t, count, throwAt, throwInDispose);

    private sealed class Enumerator(Trace t, int count, int throwAt, bool throwInDispose) : IAsyncEnumerator<int>
    {
        private int index = -1;
        public int Current => index + 100;

        public async ValueTask<bool> MoveNextAsync()
        {
            await Task.Yield();
            index++;
            if (index == throwAt)
                throw new AltException(700 + index, "feed");
            return index < count;
        }

        public async ValueTask DisposeAsync()
        {
            t.Log("feedDispose", index);
            await Task.Yield();
            if (throwInDispose)
                throw new SubAltException(750 + index);
        }
    }
}

/// <summary>A resource whose DisposeAsync may suspend and may throw (replacing an exception in flight).</summary>
sealed class FaultyResource(Trace t, int id, bool yieldFirst, bool throwInDispose) : IAsyncDisposable, IDisposable
{
    public async ValueTask DisposeAsync()
    {
        t.Log("fdispose" + id);
        if (yieldFirst)
            await Task.Yield();
        if (throwInDispose)
            throw new AltException(600 + id, "dispose");
    }

    public void Dispose()
    {
        t.Log("fdisposeSync" + id);
        if (throwInDispose)
            throw new AltException(650 + id, "dispose");
    }
}

/// <summary>Members whose getters and setters log, as targets of compound assignments with awaits on the right.</summary>
sealed class Box(Trace t)
{
    private int prop = 1;
    private readonly int[] items = { 1, 2, 3, 4 };
    public string? Text;
    public int? Maybe;
    public int Field = 5;
    public Box? Inner;
    public long Wide = 1L << 33;

    public int Prop
    {
        get { t.Log("getProp", prop); return prop; }
        set { t.Log("setProp", value); prop = value; }
    }

    public int this[int i]
    {
        get { t.Log("get[" + i + "]", items[i & 3]); return items[i & 3]; }
        set { t.Log("set[" + i + "]", value); items[i & 3] = value; }
    }

    public int Index(int i)
    {
        t.Log("index", i);
        return i;
    }

    public Box Self(string why)
    {
        t.Log("self:" + why);
        return this;
    }

    public override string ToString() => $"{prop}/{string.Join(",", items)}/{Text ?? "null"}/{Maybe?.ToString() ?? "null"}/{Field}/{Wide}";
}

/// <summary>A struct updated in place through an array element, a ref local and a compound assignment.</summary>
struct IntAndLong
{
    public int A;
    public long B;
    public override string ToString() => A + ":" + B;
}

static class FuzzMain
{
    /// <summary>
    /// Runs the cases whose indexes are given (all when none are), each on the thread pool with no
    /// context and then on a single-threaded loop, and prints one line per run.
    /// </summary>
    public static void Run(string[] args, Func<Task<string>>[] cases)
    {
        var selected = args.Length == 0 ? Enumerable.Range(0, cases.Length) : args.Select(int.Parse);
        var loop = new SingleThreadLoop("fuzz");
        foreach (var index in selected)
        {
            Console.WriteLine($"case {index}: " + Outcome(() => cases[index]().GetAwaiter().GetResult()));
            Console.WriteLine($"case {index} on loop: " + Outcome(() =>
            {
                Task<string>? run = null;
                loop.RunUntilComplete(() => run = cases[index]());
                return run!.Result;
            }));
        }
    }

    private static string Outcome(Func<string> run)
    {
        try { return run(); }
        catch (Exception e) { return "escaped " + Fuzz.Describe(e); }
    }
}
