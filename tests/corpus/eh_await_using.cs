// `await using` over IAsyncDisposable classes (whose DisposeAsync is itself async and suspends)
// and structs (DisposeAsync returning a ValueTask that completes later), nested, with exceptions
// from the body and from DisposeAsync, and ConfigureAwait(false) on the await using.
using System;
using System.Threading.Tasks;

sealed class AsyncResource : IAsyncDisposable
{
    public static string Log = "";
    public static bool Suspend;
    private readonly string name;
    private readonly bool failOnDispose;
    public AsyncResource(string name, bool failOnDispose = false)
    {
        this.name = name;
        this.failOnDispose = failOnDispose;
        Log += "+" + name;
    }

    public async ValueTask DisposeAsync()
    {
        if (Suspend) await Task.Yield();
        Log += "-" + name;
        if (failOnDispose) throw new InvalidOperationException("dispose " + name);
    }
}

struct AsyncHandle : IAsyncDisposable
{
    private readonly string name;
    public AsyncHandle(string name) { this.name = name; AsyncResource.Log += "+" + name; }

    public ValueTask DisposeAsync()
    {
        AsyncResource.Log += "-" + name;
        return AsyncResource.Suspend ? new ValueTask(Task.Delay(1)) : default;
    }
}

static class Program
{
    static async Task<int> Value(int v)
    {
        if (AsyncResource.Suspend) await Task.Yield();
        return v;
    }

    static async Task<int> Body(int mode)
    {
        await using var a = new AsyncResource("a");
        int x = await Value(1);
        await using (var h = new AsyncHandle("h"))
        {
            x += await Value(2);
            if (mode == 1) throw new ArgumentException("body");
        }
        await using (var b = new AsyncResource("b", failOnDispose: mode == 2))
        {
            x += await Value(3);
            if (mode == 3) return -x;
        }
        await using (new AsyncResource("c").ConfigureAwait(false))
        {
            x += await Value(4);
        }
        await using var g = new AsyncHandle("g");
        return x;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            AsyncResource.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var mode in new[] { 0, 1, 2, 3 })
            {
                AsyncResource.Log = "";
                string result;
                try { result = "result " + await Body(mode); }
                catch (Exception e) { result = e.GetType().Name + ": " + e.Message; }
                Console.WriteLine($"Body({mode}) = {result} log={AsyncResource.Log}");
            }
        }
    }
}
