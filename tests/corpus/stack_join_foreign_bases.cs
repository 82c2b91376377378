// A conditional whose arms are classes of another assembly (or derive from one) with a common base
// class other than object, left on the stack under a later argument's await: the rewriter spills
// it into a local of that base class, found through the other assembly's definitions. It was that
// assembly's reference, never imported, and writing the rewritten assembly crashed (Release builds
// only: a Debug build stores the arm into a typed local first). A base generic over the method's or
// its class's type parameter (Collection<T>) must be imported in the method's generic context.
using System;
using System.Collections.ObjectModel;
using System.IO;
using System.Threading.Tasks;

sealed class NotFound(string message) : ArgumentException(message);
sealed class Conflict(string message) : InvalidOperationException(message);
sealed class Numbers : Collection<int> { }
sealed class Keyed<T> : KeyedCollection<int, T> { protected override int GetKeyForItem(T item) => item!.GetHashCode(); }

static class Generic<T>
{
    public static async Task<int> Count(bool which, T item)
    {
        await Task.Yield();
        Collection<T> items = which ? new ObservableCollection<T>() : new Keyed<T>();
        items.Add(item);
        return items.Count;
    }
}

static class Program
{
    static bool Suspend;

    static async Task<int> V(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static string Describe(Exception e, int x) => $"{e.GetType().Name}: {e.Message} {x}";
    static string Describe(Delegate d, int x) => $"{d.GetType().Name} {x}";
    static string Describe(Stream s, int x) => $"{s.GetType().Name} {s.CanSeek} {x}";
    static string Describe(Collection<int> c, int x) => $"{c.GetType().Name} {c.Count} {x}";

    static async Task<string> CountOf<U>(bool which, U item)
    {
        Collection<U> items = which ? new ObservableCollection<U>() : new Keyed<U>();
        items.Add(item);
        return $"{items.GetType().Name} {items.Count} {await V(6)}";
    }

    static async Task Run(bool which)
    {
        Console.WriteLine(await Generic<string>.Count(which, "one"));
        Console.WriteLine(await CountOf(which, 2.5));
        Console.WriteLine(Describe(which ? new ArgumentException("argument") : new InvalidOperationException("operation"), await V(1)));
        Console.WriteLine(Describe(which ? new NotFound("missing") : new Conflict("clash"), await V(2)));
        Console.WriteLine(Describe(which ? (Action)(() => { }) : new Func<int>(() => 1), await V(3)));
        Console.WriteLine(Describe(which ? new MemoryStream() : new BufferedStream(Stream.Null), await V(4)));
        Console.WriteLine(Describe(which ? new Numbers { 1, 2 } : new ObservableCollection<int> { 3 }, await V(5)));
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend: {suspend}");
            await Run(true);
            await Run(false);
        }
    }
}
