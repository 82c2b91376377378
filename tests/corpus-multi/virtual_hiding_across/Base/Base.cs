using System;
using System.Threading.Tasks;

namespace H;

public static class Pause
{
    public static bool Suspend;
    public static async Task Maybe() { if (Suspend) await Task.Yield(); }
}

public abstract class Node
{
    public abstract Task<string> Name();
    public virtual async Task<string> Tag() { await Pause.Maybe(); return "Node.Tag"; }
    public virtual async Task<string> Describe(int depth)
    {
        await Pause.Maybe();
        return $"{await Name()}/{await Tag()}@{depth}";
    }
    public virtual async Task<U> Convert<U>(U value, Func<U, U> f) { await Pause.Maybe(); return f(value); }
    public virtual async Task<int> Count() { await Pause.Maybe(); return 1; }
    public virtual Task Run(Action<string> log) { log("Node.Run"); return Task.CompletedTask; }
    public async Task<string> Everything()
    {
        var parts = await Describe(0) + " " + await Convert(3, x => x + 1) + " " + await Convert("s", x => x + "!") + " " + await Count();
        await Run(s => parts += " " + s);
        return parts;
    }
}
