using System;
using System.Threading.Tasks;

namespace H;

public sealed class T1 : M3
{
    public override async Task<string> Tag() => "T1>" + await base.Tag();
    public override async Task<string> Name() { await Pause.Maybe(); return "T1:" + await base.Name(); }
    public override Task<U> Convert<U>(U value, Func<U, U> f) => base.Convert(value, f);
    public override async Task Run(Action<string> log) { log("T1.Run before"); await base.Run(log); log("T1.Run after"); }
}

public sealed class T2 : M4
{
    public override async Task<string> Tag() { await Pause.Maybe(); return "T2.abstractTag"; }
    public override async Task<int> Count() => -await base.Count();
}

// Hides M2's slot again, with the same signature, and overrides Node's Tag only through M1's override.
public class T3 : M2
{
    public new async Task<string> Tag() => "T3.nonvirtual>" + await base.Tag();
    public override async Task<string> Describe(int depth)
    {
        await Pause.Maybe();
        return "T3{" + await base.Describe(depth) + "}";
    }
}

public static class TopCalls
{
    public static async Task<string> ViaM3(M3 n) => $"{await n.Tag()} | {await n.Count()} | {await n.Convert("a", s => s + "b")}";
    public static async Task<string> ViaM4(M4 n) => $"{await n.Tag()} | {await ((M2)n).Tag()} | {await ((M1)n).Tag()} | {await n.Name()}";
}
