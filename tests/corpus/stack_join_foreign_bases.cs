// A conditional whose arms are classes of another assembly (or derive from one) with a common base
// class other than object, left on the stack under a later argument's await: the rewriter spills
// it into a local of that base class, found through the other assembly's definitions. It was that
// assembly's reference, never imported, and writing the rewritten assembly crashed (Release builds
// only: a Debug build stores the arm into a typed local first).
using System;
using System.Collections.ObjectModel;
using System.IO;
using System.Threading.Tasks;

sealed class NotFound(string message) : ArgumentException(message);
sealed class Conflict(string message) : InvalidOperationException(message);
sealed class Numbers : Collection<int> { }

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

    static async Task Run(bool which)
    {
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
