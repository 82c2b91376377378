// Compiled classic in every run and never rewritten, at the top of the hierarchy: classic overrides
// of rewritten overrides, four assemblies deep.
using System.Threading.Tasks;

namespace Hierarchy;

public sealed class ClassicTopGreeter : RewrittenGreeter
{
    public override async Task<int> Compute(int x)
    {
        await Pause.Maybe();
        return -await base.Compute(x);
    }

    public override async ValueTask<string> Name() => "Top(" + await base.Name() + ")";
}

public sealed class ClassicBigCircle : RewrittenCircle
{
    public ClassicBigCircle() => Radius = 10;

    public override async Task<double> Area() => await base.Area() + 0.5;
}
