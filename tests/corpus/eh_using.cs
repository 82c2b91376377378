// `using` declarations and statements around awaits: synchronous IDisposable classes and structs
// disposed exactly once, in reverse order, on normal return, early return and exception paths,
// with the exception surfacing in a caller after a suspension.
using System;
using System.Threading.Tasks;

sealed class Resource : IDisposable
{
    public static string Log = "";
    private readonly string name;
    private bool disposed;
    public Resource(string name) { this.name = name; Log += "+" + name; }
    public void Dispose()
    {
        if (disposed) Log += "!double:" + name;
        disposed = true;
        Log += "-" + name;
    }
}

struct Handle : IDisposable
{
    private readonly string name;
    public Handle(string name) { this.name = name; Resource.Log += "+" + name; }
    public void Dispose() => Resource.Log += "-" + name;
}

static class Program
{
    static bool Suspend;

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task Fail(string message)
    {
        if (Suspend) await Task.Delay(1);
        throw new InvalidOperationException(message);
    }

    static async Task<int> Declarations(int mode)
    {
        using var a = new Resource("a");
        int x = await Value(1);
        using var h = new Handle("h");
        x += await Value(2);
        if (mode == 1) return x;
        using (var b = new Resource("b"))
        {
            x += await Value(3);
            if (mode == 2) await Fail("inside b");
        }
        using (new Resource("c"))
        using (var d = new Handle("d"))
        {
            x += await Value(4);
            if (mode == 3) return -x;
        }
        return x;
    }

    static async Task<string> Caller(int mode)
    {
        try
        {
            return "result " + await Declarations(mode);
        }
        catch (Exception e)
        {
            return e.GetType().Name + ": " + e.Message;
        }
    }

    static async Task<int> InLoop()
    {
        int sum = 0;
        for (int i = 0; i < 3; i++)
        {
            using var r = new Resource("L" + i);
            sum += await Value(i);
            if (i == 1) continue;
            using var h = new Handle("H" + i);
            sum += await Value(10);
        }
        return sum;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var mode in new[] { 0, 1, 2, 3 })
            {
                Resource.Log = "";
                Console.WriteLine($"Caller({mode}) = {await Caller(mode)} log={Resource.Log}");
            }
            Resource.Log = "";
            Console.WriteLine($"InLoop = {await InLoop()} log={Resource.Log}");
        }
    }
}
