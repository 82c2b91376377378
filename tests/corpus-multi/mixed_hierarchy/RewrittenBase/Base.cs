// The root of the hierarchy, rewritten by Async2: virtual, abstract and interface async members,
// and rewritten methods that make virtual calls which must reach overrides defined in assemblies
// compiled later (classic ones included).
using System.Threading.Tasks;

namespace Hierarchy;

public static class Pause
{
    public static bool Suspend;

    public static async Task Maybe()
    {
        if (Suspend) await Task.Yield();
    }
}

public class Greeter
{
    public virtual async Task<int> Compute(int x)
    {
        await Pause.Maybe();
        return x + 1;
    }

    public virtual async ValueTask<string> Name()
    {
        await Pause.Maybe();
        return "Greeter";
    }

    // A virtual call from inside the rewritten root: it must reach the most derived override.
    public async Task<string> Template(int x) => $"{await Name()}:{await Compute(x) * 10}";
}

public abstract class Shape
{
    public abstract Task<double> Area();

    public async Task<string> Describe()
    {
        double a = await Area();
        await Pause.Maybe();
        return $"{GetType().Name} area {a}";
    }
}

public interface IStep
{
    Task<int> Apply(int value);

    async Task<int> Twice(int value) => await Apply(await Apply(value));
}
