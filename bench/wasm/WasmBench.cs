// The WebAssembly bench (bench/README.md, "WebAssembly"): four of the seed's measures as one
// program, compiled classic and runtime-async (then rewritten by Async2) and run in Mono on
// WebAssembly by tests/Async2.Tests/Wasm/WasmBenchTests.cs, which pairs the rows of the two builds.
// Everything stays on the browser's one thread: a suspension is resumed by the driver's own call,
// not by the event loop, whose timer clamping would be measured instead. Each row prints
// "name<TAB>ns per operation<TAB>checksum"; the checksums must agree between the builds.
// Argument: the measuring window per row in milliseconds.
using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

static class Program
{
    static int s_global = 1;

    // ---- call cost: an async call that never suspends ----
    static async Task<long> Callee() { if (s_global == 0) await Task.Yield(); return s_global; }

    static async Task<long> Calls(int count)
    {
        long sum = 0;
        for (int i = 0; i < count; i++) sum += await Callee();
        return sum;
    }

    // ---- Fib: recursion with two awaited calls per frame, nothing suspends ----
    static async Task<long> Fib(int n) => n < 2 ? n : await Fib(n - 1) + await Fib(n - 2);

    // ---- suspension-heavy: a chain of ten frames suspends at the bottom, the driver resumes it ----
    sealed class ManualAwaiter : ICriticalNotifyCompletion
    {
        Action? _pending;
        public ManualAwaiter GetAwaiter() => this;
        public bool IsCompleted => false;
        public int GetResult() => 1;
        public void OnCompleted(Action continuation) => _pending = continuation;
        public void UnsafeOnCompleted(Action continuation) => _pending = continuation;
        public void Resume() { var next = _pending!; _pending = null; next(); }
    }

    static async Task<long> Chain(int depth, ManualAwaiter awaiter, int awaits)
    {
        if (depth > 1) return await Chain(depth - 1, awaiter, awaits) + 1;
        long sum = 0;
        for (int i = 0; i < awaits; i++) sum += await awaiter;
        return sum;
    }

    static async Task<long> Suspensions(int count)
    {
        var awaiter = new ManualAwaiter();
        var chain = Chain(10, awaiter, count);
        for (int i = 0; i < count; i++) awaiter.Resume();
        return await chain;
    }

    // ---- exceptions at depth: thrown ten frames down, with and without a suspension first ----
    static async Task<long> Thrower(int depth, ManualAwaiter? awaiter)
    {
        if (depth > 1) return await Thrower(depth - 1, awaiter) + 1;
        if (awaiter is not null) await awaiter;
        throw new InvalidOperationException("bottom");
    }

    static async Task<long> Throws(int count, bool suspend)
    {
        long caught = 0;
        for (int i = 0; i < count; i++)
        {
            var awaiter = suspend ? new ManualAwaiter() : null;
            var task = Thrower(10, awaiter);
            awaiter?.Resume();
            try { await task; } catch (InvalidOperationException) { caught++; }
        }
        return caught;
    }

    /// <summary>Runs <paramref name="batch"/> of <paramref name="perBatch"/> operations until the window is spent; prints one row.</summary>
    static async Task Measure(string name, int windowMs, long perBatch, Func<Task<long>> batch)
    {
        await batch(); // warm-up: the interpreter's first calls of each method compile it to its internal form
        long operations = 0, checksum = 0;
        var clock = Stopwatch.StartNew();
        do
        {
            checksum += await batch();
            operations += perBatch;
        } while (clock.ElapsedMilliseconds < windowMs);
        var perBatchChecksum = checksum / (operations / perBatch);
        Console.WriteLine($"{name}\t{clock.Elapsed.TotalNanoseconds / operations:0.0}\t{perBatchChecksum}");
    }

    static async Task Main(string[] args)
    {
        var window = args.Length > 0 ? int.Parse(args[0]) : 1000;
        await Measure("call cost (ns per call)", window, 1000, () => Calls(1000));
        await Measure("Fib(20) (ns per call)", window, 21891, () => Fib(20));
        await Measure("suspension-heavy, depth 10 (ns per suspension)", window, 1000, () => Suspensions(1000));
        await Measure("exception through 10 frames (ns per throw)", window, 100, () => Throws(100, suspend: false));
        await Measure("exception through 10 frames after a suspension (ns per throw)", window, 100, () => Throws(100, suspend: true));
    }
}
