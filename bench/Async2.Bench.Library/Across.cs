using System.Runtime.CompilerServices;

namespace Async2.Bench.Library;

/// <summary>
/// Twins of the worker's own callees (CallCost.ModelCallee, Fib's Add), in another assembly: the
/// same code, so the worker's rows in and across assemblies differ only by the assembly boundary.
/// </summary>
public static class Across
{
    public static int Global = 1;

    public static async Task<long> Callee() { if (Global == 0) await Task.Yield(); return Global; }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<long> CalleeNoInline() { if (Global == 0) await Task.Yield(); return Global; }

    public static async Task<int> Add(int a, int b) { if (Global == 0) await Task.Yield(); return a + b; }
}
