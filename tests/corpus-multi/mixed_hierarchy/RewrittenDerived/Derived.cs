// Rewritten by Async2, deriving from the classic assembly: a rewritten override of a classic
// override of a rewritten method, a rewritten override of a classic root's method, and rewritten
// implementations of the rewritten root's abstract method and interface.
using System.Threading.Tasks;

namespace Hierarchy;

public class RewrittenGreeter : ClassicGreeter
{
    public override async Task<int> Compute(int x)
    {
        await Pause.Maybe();
        return await base.Compute(x) + 1000;
    }

    public override async ValueTask<string> Name()
    {
        var inner = await base.Name();
        await Pause.Maybe();
        return "Rewritten(" + inner + ")";
    }
}

public sealed class RewrittenOverRoot : ClassicRoot
{
    public override async Task<string> Describe(string s)
    {
        var inner = await base.Describe(s);
        await Pause.Maybe();
        return "rewritten[" + inner + "]";
    }
}

public class RewrittenCircle : Shape
{
    public double Radius = 1;

    public override async Task<double> Area()
    {
        await Pause.Maybe();
        return Radius * Radius * 3;
    }
}

public sealed class RewrittenStep : IStep
{
    public async Task<int> Apply(int value)
    {
        await Pause.Maybe();
        return value + 7;
    }

    public async Task<int> Twice(int value) => -value; // replaces the interface's default
}
