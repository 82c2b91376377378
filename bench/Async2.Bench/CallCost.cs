using System.Runtime.CompilerServices;

namespace Async2.Bench;

/// <summary>
/// Minimum call cost (seed 002): a Task&lt;long&gt;-returning caller calls a nearly empty async
/// callee in a loop for a fixed time. The callee reads a global and awaits Task.Yield() only when
/// it is 0, which it never is, so nothing suspends. Callers and callees marked
/// [RuntimeAsyncMethodGeneration(false)] are classic state machines in every build ("Task" rows and
/// columns); the others follow the build (Task, Runtime or Async2).
/// </summary>
internal static class CallCost
{
    private static int s_global = 1;
    private const int Batch = 1000;

    // ---- callees ----
    [RuntimeAsyncMethodGeneration(false)]
    private static async Task<long> ClassicTaskCallee() { if (s_global == 0) await Task.Yield(); return s_global; }

    [RuntimeAsyncMethodGeneration(false)]
    private static async ValueTask<long> ClassicValueTaskCallee() { if (s_global == 0) await Task.Yield(); return s_global; }

    private static async Task<long> ModelCallee() { if (s_global == 0) await Task.Yield(); return s_global; }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task<long> ModelCalleeNoInline() { if (s_global == 0) await Task.Yield(); return s_global; }

    // ---- callers: each loops until the deadline, checking the clock every Batch calls ----
    [RuntimeAsyncMethodGeneration(false)]
    private static async Task<long> ClassicToClassicTask(long deadline)
    {
        long n = 0, sum = 0;
        do { for (int i = 0; i < Batch; i++) sum += await ClassicTaskCallee(); n += Batch; } while (System.Diagnostics.Stopwatch.GetTimestamp() < deadline);
        return n + (sum & 0);
    }

    [RuntimeAsyncMethodGeneration(false)]
    private static async Task<long> ClassicToClassicValueTask(long deadline)
    {
        long n = 0, sum = 0;
        do { for (int i = 0; i < Batch; i++) sum += await ClassicValueTaskCallee(); n += Batch; } while (System.Diagnostics.Stopwatch.GetTimestamp() < deadline);
        return n + (sum & 0);
    }

    [RuntimeAsyncMethodGeneration(false)]
    private static async Task<long> ClassicToModel(long deadline)
    {
        long n = 0, sum = 0;
        do { for (int i = 0; i < Batch; i++) sum += await ModelCallee(); n += Batch; } while (System.Diagnostics.Stopwatch.GetTimestamp() < deadline);
        return n + (sum & 0);
    }

    [RuntimeAsyncMethodGeneration(false)]
    private static async Task<long> ClassicToModelNoInline(long deadline)
    {
        long n = 0, sum = 0;
        do { for (int i = 0; i < Batch; i++) sum += await ModelCalleeNoInline(); n += Batch; } while (System.Diagnostics.Stopwatch.GetTimestamp() < deadline);
        return n + (sum & 0);
    }

    private static async Task<long> ModelToClassicTask(long deadline)
    {
        long n = 0, sum = 0;
        do { for (int i = 0; i < Batch; i++) sum += await ClassicTaskCallee(); n += Batch; } while (System.Diagnostics.Stopwatch.GetTimestamp() < deadline);
        return n + (sum & 0);
    }

    private static async Task<long> ModelToClassicValueTask(long deadline)
    {
        long n = 0, sum = 0;
        do { for (int i = 0; i < Batch; i++) sum += await ClassicValueTaskCallee(); n += Batch; } while (System.Diagnostics.Stopwatch.GetTimestamp() < deadline);
        return n + (sum & 0);
    }

    private static async Task<long> ModelToModel(long deadline)
    {
        long n = 0, sum = 0;
        do { for (int i = 0; i < Batch; i++) sum += await ModelCallee(); n += Batch; } while (System.Diagnostics.Stopwatch.GetTimestamp() < deadline);
        return n + (sum & 0);
    }

    private static async Task<long> ModelToModelNoInline(long deadline)
    {
        long n = 0, sum = 0;
        do { for (int i = 0; i < Batch; i++) sum += await ModelCalleeNoInline(); n += Batch; } while (System.Diagnostics.Stopwatch.GetTimestamp() < deadline);
        return n + (sum & 0);
    }

    // ---- across assemblies: the same callee in Async2.Bench.Library ----
    private static async Task<long> ModelToAcross(long deadline)
    {
        long n = 0, sum = 0;
        do { for (int i = 0; i < Batch; i++) sum += await Library.Across.Callee(); n += Batch; } while (System.Diagnostics.Stopwatch.GetTimestamp() < deadline);
        return n + (sum & 0);
    }

    private static async Task<long> ModelToAcrossNoInline(long deadline)
    {
        long n = 0, sum = 0;
        do { for (int i = 0; i < Batch; i++) sum += await Library.Across.CalleeNoInline(); n += Batch; } while (System.Diagnostics.Stopwatch.GetTimestamp() < deadline);
        return n + (sum & 0);
    }

    /// <summary>The callee column of a call into the library: "&lt;model&gt; (another assembly)".</summary>
    public const string AcrossSuffix = " (another assembly)";

    public static void Run(Options options)
    {
        double ms = options.Quick ? 100 : 250;
        var model = Model.Name;
        // The classic callers and callees, named for the runtime they run on.
        string task = Model.Variant("Task"), valueTask = Model.Variant("ValueTask");
        var cells = new List<(string Caller, string Callee, Func<long, Task<long>> Loop)>();
        if (Model.IsClassicBuild)
        {
            cells.Add((task, task, ClassicToClassicTask));
            cells.Add((task, valueTask, ClassicToClassicValueTask));
            cells.Add((task, task + " (non-inlineable)", ClassicToModelNoInline));
        }
        else
        {
            cells.Add((model, task, ModelToClassicTask));
            cells.Add((model, valueTask, ModelToClassicValueTask));
            cells.Add((model, model, ModelToModel));
            cells.Add((model, model + " (non-inlineable)", ModelToModelNoInline));
            cells.Add((task, model, ClassicToModel));
            cells.Add((task, model + " (non-inlineable)", ClassicToModelNoInline));
        }
        cells.Add((model, model + AcrossSuffix, ModelToAcross));
        cells.Add((model, model + " (non-inlineable)" + AcrossSuffix, ModelToAcrossNoInline));
        foreach (var (caller, callee, loop) in cells)
        {
            Runner.Measure(options, "callcost", model, $"{caller}->{callee}", "calls/s", () =>
            {
                long bytes = GC.GetAllocatedBytesForCurrentThread();
                long start = System.Diagnostics.Stopwatch.GetTimestamp();
                long n = Runner.Wait(loop(Runner.Deadline(ms)));
                long elapsed = System.Diagnostics.Stopwatch.GetTimestamp() - start;
                bytes = GC.GetAllocatedBytesForCurrentThread() - bytes;
                return new Sample(n * 1000.0 / Runner.Ms(elapsed), (double)bytes / n);
            });
        }
    }
}
