// Static constructors re-entered by async code on their own thread: a class's static constructor
// starts an async method of another class that suspends on a TaskCompletionSource, then completes
// it itself, so the method resumes inline inside the constructor and calls static async methods of
// the class still being initialized (allowed on the same thread: it sees the fields set so far),
// and of a third class whose own constructor then runs, nested. One constructor fails after such a
// resumption; the pending work resumed later sees TypeInitializationException when it touches the
// failed class, before and after an await. Explicit static constructors, no beforefieldinit.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

static class Trace
{
    public static readonly List<string> Lines = new();
    public static void Add(string s) { Lines.Add(s); Console.WriteLine("  " + s); }
}

static class Registry
{
    public static readonly List<string> Names = new();
    public static string Mode = "initializing";
    public static Task<string>? Warmup;
    static Registry()
    {
        Trace.Add("Registry cctor start");
        var gate = new TaskCompletionSource();
        Warmup = Loader.Load(gate.Task);
        Names.Add("from cctor");
        Trace.Add("Registry cctor completes gate");
        gate.SetResult();
        Mode = "ready";
        Trace.Add("Registry cctor end, warmup done=" + Warmup.IsCompleted);
    }
    public static async Task<int> Count(string who)
    {
        Trace.Add($"Registry.Count by {who}: mode={Mode}");
        await Program.Pause();
        return Names.Count;
    }
}

static class Metrics
{
    public static int Ticks;
    static Metrics() => Trace.Add("Metrics cctor (Registry mode=" + Registry.Mode + ")");
    public static async Task<int> Tick()
    {
        await Program.Pause();
        return ++Ticks;
    }
}

static class Loader
{
    public static async Task<string> Load(Task gate)
    {
        Trace.Add("Load start");
        await gate;
        Trace.Add("Load resumed, mode=" + Registry.Mode);
        int n = await Registry.Count("Load");
        int t = await Metrics.Tick();
        Registry.Names.Add("from Load");
        return $"names={n} ticks={t}";
    }
}

static class Fragile
{
    public static int Value;
    static Fragile()
    {
        Trace.Add("Fragile cctor start");
        Shared.Pending = Watcher.Watch(Shared.Gate.Task);
        Trace.Add("Fragile cctor throws");
        throw new InvalidOperationException("fragile");
    }
    public static async Task<int> Read()
    {
        await Program.Pause();
        return Value;
    }
}

static class Shared
{
    public static readonly TaskCompletionSource Gate = new();
    public static Task<string>? Pending;
}

static class Watcher
{
    public static async Task<string> Watch(Task gate)
    {
        Trace.Add("Watch start");
        await gate;
        Trace.Add("Watch resumed");
        try { return "read " + await Fragile.Read(); }
        catch (TypeInitializationException e) { return "watch saw " + e.TypeName + ": " + e.InnerException!.Message; }
    }
}

static class Program
{
    public static bool Suspend;
    public static async Task Pause() { if (Suspend) await Task.Yield(); }

    static async Task Main()
    {
        Suspend = false;
        Console.WriteLine("main start");
        Console.WriteLine("count " + await Registry.Count("Main"));
        Console.WriteLine("warmup " + await Registry.Warmup!);
        Console.WriteLine("names " + string.Join(",", Registry.Names));
        Suspend = true;
        Console.WriteLine("count " + await Registry.Count("Main"));
        Console.WriteLine("tick " + await Metrics.Tick());

        for (int i = 0; i < 2; i++)
        {
            try { Console.WriteLine("fragile " + await Fragile.Read()); }
            catch (TypeInitializationException e) { Console.WriteLine("main saw " + e.TypeName + ": " + e.InnerException!.Message); }
        }
        Console.WriteLine("releasing the watcher");
        Shared.Gate.SetResult();
        Console.WriteLine(await Shared.Pending!);
        try { Console.WriteLine("fragile " + await Fragile.Read()); }
        catch (TypeInitializationException e) { Console.WriteLine("main saw again " + e.TypeName); }
        Console.WriteLine("trace lines " + Trace.Lines.Count);
    }
}
