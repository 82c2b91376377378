using System.Diagnostics;

namespace Async2.Bench;

/// <summary>The ValueTask twin of <see cref="Exceptions"/>: the same body with <c>async ValueTask&lt;long&gt;</c>.</summary>
internal static partial class Exceptions
{
    private static async ValueTask<long> DescendValueTask(int depth, int finallys, bool suspend, bool fail)
    {
        if (depth <= 1)
        {
            if (suspend)
                await Task.Yield();
            if (fail)
                throw new Exception("bottom");
            return 1;
        }
        if (finallys > 0)
        {
            try
            {
                return await DescendValueTask(depth - 1, finallys - 1, suspend, fail) + 1;
            }
            finally
            {
                s_finallyRuns++;
            }
        }
        return await DescendValueTask(depth - 1, 0, suspend, fail) + 1;
    }

    private static async Task<long> LoopValueTask(int depth, int finallys, bool suspend, bool fail, long deadline)
    {
        long n = 0;
        do
        {
            try
            {
                await DescendValueTask(depth, finallys, suspend, fail);
            }
            catch (Exception)
            {
            }
            n++;
        } while (Stopwatch.GetTimestamp() < deadline);
        return n;
    }
}
