// Compiled classic in every run and never rewritten: classic async overrides of rewritten virtual
// and abstract methods, a classic implementation of a rewritten interface, and a classic root class
// that the next (rewritten) assembly derives from.
using System.Threading.Tasks;

namespace Hierarchy;

public class ClassicGreeter : Greeter
{
    public override async Task<int> Compute(int x)
    {
        int b = await base.Compute(x);
        await Pause.Maybe();
        return b * 2;
    }

    public override async ValueTask<string> Name() => "Classic(" + await base.Name() + ")";
}

public sealed class ClassicSquare : Shape
{
    public double Side = 3;

    public override async Task<double> Area()
    {
        await Pause.Maybe();
        return Side * Side;
    }
}

public sealed class ClassicStep : IStep
{
    public async Task<int> Apply(int value)
    {
        await Pause.Maybe();
        return value * 3;
    }
}

public class ClassicRoot
{
    public virtual async Task<string> Describe(string s)
    {
        await Pause.Maybe();
        return "root:" + s;
    }

    public async Task<string> Twice(string s) => await Describe(s) + "|" + await Describe(s + s);
}
