// AsyncStackTrace.Capture() three awaits deep, after real suspensions: the callers are no longer on
// the thread's stack, only linked as continuations. Line numbers below are asserted by
// LogicalStackTraceTests: keep them where they are.
using System;
using System.Threading.Tasks;
using Async2.Runtime;

static class Program
{
    static async Task<int> Main()
    {
        Console.WriteLine(await Outer()); // line 12
        return 0;
    }

    static async Task<string> Outer()
    {
        await Task.Yield();
        return await Middle(2); // line 19
    }

    static async Task<string> Middle(int depth)
    {
        await Task.Delay(1);
        var result = await Inner(depth); // line 25
        return result;
    }

    static async Task<string> Inner(int depth)
    {
        await Task.Yield();
        var trace = AsyncStackTrace.Capture(); // line 32
        foreach (var frame in trace.Frames)
            Console.WriteLine(frame.Boundary ?? $"{frame.Method!.DeclaringType!.Name}.{frame.Method.Name} {System.IO.Path.GetFileName(frame.File)}:{frame.Line} {(frame.IsAwaiting ? "awaiting" : "running")}");
        Console.Write(trace);
        return $"depth {depth}";
    }

    // Set before any dispatch (the first resumption reads it), unless the test asks to see it off.
    static Program() => AppContext.SetSwitch("Async2.LogicalStackTraces", Environment.GetEnvironmentVariable("LOGICAL_STACKS") != "off");
}
