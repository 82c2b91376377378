// Exceptions thrown after a suspension through long runs of frames without a handler at their
// await: runs shorter than, equal to and longer than the 64 frames Async2 rethrows through in
// one throw (PassThroughFrames.MaxNesting), caught at the top or by handlers spaced along the
// chain. The trace must list every frame, innermost first, as classic async's does.
using System;
using System.Linq;
using System.Threading.Tasks;

static class Program
{
    static int HandlerEvery;

    static async Task<int> Descend(int depth)
    {
        if (depth == 0)
        {
            await Task.Yield();
            throw new InvalidOperationException("bottom");
        }
        if (HandlerEvery > 0 && depth % HandlerEvery == 0)
        {
            try
            {
                return await Descend(depth - 1) + 1;
            }
            catch (InvalidOperationException e) when (e.Data.Count < 1000)
            {
                e.Data[depth] = e.StackTrace!.Split('\n').Count(line => line.Contains("Descend"));
                throw;
            }
        }
        return await Descend(depth - 1) + 1;
    }

    static async Task Main()
    {
        foreach (int handlerEvery in new[] { 0, 70, 33 })
            foreach (int depth in new[] { 1, 63, 64, 65, 128, 150, 300 })
            {
                HandlerEvery = handlerEvery;
                try
                {
                    await Descend(depth);
                }
                catch (InvalidOperationException e)
                {
                    var lines = e.StackTrace!.Split('\n').Select(line => line.Trim()).ToArray();
                    var frames = lines.Where(line => line.Contains("Descend")).ToArray();
                    Console.WriteLine($"handler every {handlerEvery}, depth {depth}: {frames.Length} Descend frames of {lines.Length} lines");
                    Console.WriteLine($"  innermost: {frames.FirstOrDefault()}");
                    Console.WriteLine($"  outermost: {frames.LastOrDefault()}");
                    Console.WriteLine($"  seen at handlers: {string.Join(",", e.Data.Keys.Cast<int>().OrderBy(k => k).Select(k => $"{k}:{e.Data[k]}"))}");
                }
            }
    }
}
