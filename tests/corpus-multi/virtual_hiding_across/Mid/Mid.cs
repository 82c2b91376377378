using System;
using System.Threading.Tasks;

namespace H;

public class M1 : Node
{
    public override async Task<string> Name() { await Pause.Maybe(); return "M1"; }
    public override async Task<string> Tag() => "M1(" + await base.Tag() + ")";
    public override async Task<U> Convert<U>(U value, Func<U, U> f)
    {
        var v = await base.Convert(value, f);
        await Pause.Maybe();
        return f(v);
    }
    public override async Task<int> Count() => 10 + await base.Count();
    public override async Task Run(Action<string> log) { await base.Run(log); await Pause.Maybe(); log("M1.Run"); }
}

// Hides Node.Tag and M1.Tag with a slot of its own; Count is overridden without async.
public class M2 : M1
{
    public new virtual async Task<string> Tag() { await Pause.Maybe(); return "M2.newTag(" + await base.Tag() + ")"; }
    public override Task<int> Count() => Pause.Suspend ? CountSlow() : base.Count();
    private async Task<int> CountSlow() { await Task.Yield(); return 100 + await base.Count(); }
    public override async Task<string> Describe(int depth) => "M2[" + await base.Describe(depth + 1) + "]";
}

// Overrides M2's new slot, not Node's.
public class M3 : M2
{
    public override async Task<string> Tag() { await Pause.Maybe(); return "M3.Tag>" + await base.Tag(); }
    public override async Task<U> Convert<U>(U value, Func<U, U> f) => await base.Convert(f(value), f);
    public override async Task<int> Count() => 1000 + await base.Count();
}

// Seals one slot, hides another one abstractly.
public abstract class M4 : M3
{
    public sealed override async Task<string> Name() => "M4:" + await base.Name();
    public new abstract Task<string> Tag();
}

public static class MidCalls
{
    public static async Task<string> ViaNode(Node n) => $"{await n.Tag()} | {await n.Count()} | {await n.Convert(1, x => x * 2)}";
    public static async Task<string> ViaM1(M1 n) => $"{await n.Tag()} | {await n.Count()} | {await n.Name()}";
    public static async Task<string> ViaM2(M2 n) => $"{await n.Tag()} | {await n.Describe(5)}";
}
