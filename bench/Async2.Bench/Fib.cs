using System.Diagnostics;

namespace Async2.Bench;

/// <summary>FibAsync(n) against Fib(n) (seed 001): every await finds a completed task.</summary>
internal static class Fib
{
    private static int Sync(int n) => n < 2 ? n : Sync(n - 1) + Sync(n - 2);

    private static async Task<int> FibAsync(int n) => n < 2 ? n : await FibAsync(n - 1) + await FibAsync(n - 2);

    private static async ValueTask<int> FibValueTask(int n) => n < 2 ? n : await FibValueTask(n - 1) + await FibValueTask(n - 2);

    // The sum through an async Add, once in this assembly and once in Async2.Bench.Library: the
    // two differ only by the assembly boundary every Add call crosses.
    private static int s_global = 1;

    private static async Task<int> Add(int a, int b) { if (s_global == 0) await Task.Yield(); return a + b; }

    private static async Task<int> FibAddHere(int n) => n < 2 ? n : await Add(await FibAddHere(n - 1), await FibAddHere(n - 2));

    private static async Task<int> FibAddAcross(int n) => n < 2 ? n : await Library.Across.Add(await FibAddAcross(n - 1), await FibAddAcross(n - 2));

    public const string AddHereCase = "Fib({0}), Add in this assembly";
    public const string AddAcrossCase = "Fib({0}), Add in another assembly";

    public static void Run(Options options)
    {
        int n = options.Quick ? 32 : 40;
        double syncMs = Measure(options, n, Model.Variant("Sync"), Sync, syncMs: null);
        Measure(options, n, Model.Name, n => Runner.Wait(FibAsync(n)), syncMs);
        if (Model.MeasuresValueTask)
            Measure(options, n, "ValueTask", n => Runner.Wait(FibValueTask(n)), syncMs);
        int across = options.Quick ? 27 : 32;
        Measure(options, across, Model.Name, n => Runner.Wait(FibAddHere(n)), syncMs: null, string.Format(AddHereCase, across));
        Measure(options, across, Model.Name, n => Runner.Wait(FibAddAcross(n)), syncMs: null, string.Format(AddAcrossCase, across));
    }

    /// <param name="syncMs">
    /// Fib(n) measured in this process, reported with the async cell so "÷ Sync" compares within one
    /// process (every build runs its own Sync first).
    /// </param>
    /// <returns>The median time in ms.</returns>
    private static double Measure(Options options, int n, string variant, Func<int, int> fib, double? syncMs, string? caseName = null)
    {
        // Warm-up on a smaller n (Fib(40) classic takes seconds); settled = two rounds within 3%.
        Runner.Run(options, () => Time(fib, 27));
        var rounds = new double[options.Quick ? 1 : 3];
        double bytes = 0;
        for (int i = 0; i < rounds.Length; i++)
            (rounds[i], bytes) = Time(fib, n);
        double median = Runner.Median(rounds);
        Report.Cell("fib", variant, caseName ?? $"Fib({n})", "ms", median, bytes, rounds,
            extra: syncMs is { } sync ? new Dictionary<string, double> { ["syncMs"] = sync } : null);
        return median;
    }

    private static Sample Time(Func<int, int> fib, int n)
    {
        long bytes = GC.GetAllocatedBytesForCurrentThread();
        long start = Stopwatch.GetTimestamp();
        int result = fib(n);
        double ms = Runner.Ms(Stopwatch.GetTimestamp() - start);
        bytes = GC.GetAllocatedBytesForCurrentThread() - bytes;
        if (result != Expected(n))
            throw new InvalidOperationException($"Fib({n}) = {result}");
        return new Sample(ms, bytes / Calls(n));
    }

    private static int Expected(int n) { int a = 0, b = 1; for (int i = 0; i < n; i++) (a, b) = (b, a + b); return a; }

    /// <summary>Calls made by the recursion for n: 2 Fib(n+1) - 1.</summary>
    private static double Calls(int n) => 2.0 * Expected(n + 1) - 1;
}
