// With the flow suppressed, a leaf awaits Task.Yield, which resumes it on a thread-pool thread, maybe
// before the chain has finished handing its Task back. The leaf waits until Main has its Task (so
// the callers have awaited it: classic async has their continuations registered), sets a value and
// returns or throws. The callers, which captured no context, continue on the leaf's thread in the
// context it left, and see the value: every time, however the pool thread and the chain interleave.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static readonly AsyncLocal<string?> Value = new();
    static ManualResetEventSlim CallersAwaited = new();
    static string? MiddleSaw;
    static string? OuterSaw;

    static async Task<int> Leaf(bool throws)
    {
        Value.Value = "leaf before";
        await Task.Yield();
        if (!CallersAwaited.Wait(10_000))
            Console.WriteLine("the callers did not await within 10 s");
        Value.Value = "leaf";
        if (throws)
            throw new InvalidOperationException("thrown by leaf");
        return 1;
    }

    static async Task<int> Middle(bool throws)
    {
        try
        {
            int result = await Leaf(throws);
            MiddleSaw = Value.Value;
            return result;
        }
        catch (InvalidOperationException)
        {
            MiddleSaw = Value.Value;
            return -1;
        }
    }

    static async Task Outer(bool throws)
    {
        Value.Value = "outer";
        ExecutionContext.SuppressFlow();
        await Middle(throws);
        OuterSaw = Value.Value;
    }

    static void Main()
    {
        const int Runs = 2000;
        foreach (var throws in new[] { false, true })
        {
            int middleSawLeaf = 0, outerSawLeaf = 0;
            for (int run = 0; run < Runs; run++)
            {
                CallersAwaited = new ManualResetEventSlim();
                var task = Outer(throws);
                if (ExecutionContext.IsFlowSuppressed())
                    ExecutionContext.RestoreFlow();
                CallersAwaited.Set();
                task.GetAwaiter().GetResult();
                if (MiddleSaw == "leaf")
                    middleSawLeaf++;
                if (OuterSaw == "leaf")
                    outerSawLeaf++;
            }
            Console.WriteLine($"leaf throws: {throws}: the middle method saw the leaf's value in {middleSawLeaf} of {Runs} runs, the outer one in {outerSawLeaf}");
        }
    }
}
