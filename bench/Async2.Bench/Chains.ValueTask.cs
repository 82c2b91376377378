namespace Async2.Bench;

/// <summary>The ValueTask twins of <see cref="Chains"/>' workloads.</summary>
internal static partial class Chains
{
    private static async ValueTask<int> AddOneValueTask(ValueTask<int> input) => 1 + await input;

    private static async ValueTask<int> AddOneYieldValueTask(ValueTask<int> input)
    {
        var result = 1 + await input;
        await Task.Yield();
        return result;
    }

    private static async ValueTask<int> CountRecursivelyValueTask(int count) =>
        count <= 0 ? count : 1 + await CountRecursivelyValueTask(count - 1);
}
