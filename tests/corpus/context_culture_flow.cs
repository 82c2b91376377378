// CultureInfo.CurrentCulture / CurrentUICulture set inside async methods, read by formatting after
// awaits, in callers, catch blocks, ContinueWith continuations, Task.Run, Parallel.ForEachAsync,
// Progress<T> handlers and plain callbacks posted to the loop after a chain ran and ended there.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static readonly List<string> Log = new();

    static CultureInfo Make(string sep)
    {
        var c = (CultureInfo)CultureInfo.InvariantCulture.Clone();
        c.NumberFormat.NumberDecimalSeparator = sep;
        return c;
    }

    static readonly CultureInfo A = Make("A"), B = Make("B"), C = Make("C"), U = Make("U");
    static string Cul => 1.5.ToString() + "/" + CultureInfo.CurrentUICulture.NumberFormat.NumberDecimalSeparator;
    static void Note(string where) => Log.Add($"{where}:{Cul}");

    static TaskCompletionSource<int> Gate = new();

    static async Task<string> SetsA()
    {
        CultureInfo.CurrentCulture = A;
        CultureInfo.CurrentUICulture = U;
        if (Suspend) await Task.Yield();
        string s = $"{2.5}";
        await Gate.Task;
        return s + "|" + $"{3.5}";
    }

    static async Task<int> MiddleSetsB()
    {
        CultureInfo.CurrentCulture = B;
        string inner = await SetsA();
        Note("middle after " + inner);
        CultureInfo.CurrentCulture = C;
        if (Suspend) await Task.Yield();
        Note("middle end");
        return inner.Length;
    }

    static async Task<int> ThrowsAfterSetting()
    {
        CultureInfo.CurrentCulture = A;
        if (Suspend) await Task.Yield();
        throw new InvalidOperationException($"{4.5}");
    }

    static async Task<string> ContinueWithInside()
    {
        CultureInfo.CurrentCulture = A;
        var t = Gate.Task.ContinueWith(g => $"cw {g.Result + 0.5}", TaskScheduler.FromCurrentSynchronizationContext());
        var t2 = Gate.Task.ContinueWith(g => $"cws {g.Result + 0.5}", TaskContinuationOptions.ExecuteSynchronously);
        CultureInfo.CurrentCulture = B;
        return await t + " " + await t2 + " " + $"{5.5}";
    }

    static async Task<string> TaskRunInside()
    {
        CultureInfo.CurrentCulture = A;
        if (Suspend) await Task.Yield();
        string r = await Task.Run(async () =>
        {
            string before = $"{6.5}";
            CultureInfo.CurrentCulture = B;
            await Task.Delay(1);
            return before + " " + $"{6.5}";
        });
        return r + " " + $"{6.5}";
    }

    static async Task<string> ParallelInside()
    {
        CultureInfo.CurrentCulture = A;
        if (Suspend) await Task.Yield();
        var bag = new System.Collections.Concurrent.ConcurrentBag<string>();
        await Parallel.ForEachAsync(new[] { 1, 2, 3 }, async (i, ct) =>
        {
            string before = $"{i + 0.5}";
            if (i == 2) CultureInfo.CurrentCulture = B;
            await Task.Yield();
            bag.Add(before + "=" + $"{i + 0.5}");
        });
        return string.Join(",", bag.OrderBy(x => x)) + " " + $"{7.5}";
    }

    static async Task<string> ProgressInside(IProgress<double> progress)
    {
        CultureInfo.CurrentCulture = A;
        progress.Report(8.5);
        if (Suspend) await Task.Yield();
        progress.Report(9.5);
        await Gate.Task;
        progress.Report(10.5);
        return $"{11.5}";
    }

    static async void AsyncVoidSets()
    {
        CultureInfo.CurrentCulture = A;
        if (Suspend) await Task.Yield();
        Note("async void after");
    }

    static async Task Body(SingleThreadLoop loop)
    {
        // The loop's thread gets a culture of its own, outside any async method.
        CultureInfo.CurrentCulture = C;
        Note("body start");

        var t = MiddleSetsB();
        Note("after start");
        await Task.Yield();
        Gate.SetResult(1);
        Note("after release");
        Log.Add("middle -> " + await t);
        Note("after await");
        Gate = new();

        try { await ThrowsAfterSetting(); }
        catch (InvalidOperationException e) { Note("catch " + e.Message); }

        var cw = ContinueWithInside();
        Note("after cw start");
        Gate.SetResult(2);
        Note("after cw release");
        Log.Add(await cw);
        Gate = new();

        Log.Add(await TaskRunInside());
        Note("after run");
        Log.Add(await ParallelInside());
        Note("after parallel");

        var progress = new Progress<double>(v => Note($"progress {v}"));
        var p = ProgressInside(progress);
        await Task.Yield();
        Gate.SetResult(3);
        Log.Add(await p);
        Gate = new();
        Note("after progress");

        AsyncVoidSets();
        Note("after async void");
        await Task.Yield();
        Note("body end");
    }

    static void Main()
    {
        var loop = new SingleThreadLoop();
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Log.Clear();
            loop.RunUntilComplete(() => Body(loop));
            // A plain callback on the loop afterwards: the thread's own culture, as the body left it.
            loop.Send(_ => { Note("next callback"); }, null);
            loop.Send(_ => { CultureInfo.CurrentCulture = CultureInfo.InvariantCulture; CultureInfo.CurrentUICulture = CultureInfo.InvariantCulture; }, null);
            Console.WriteLine($"suspend={suspend}");
            foreach (var line in Log) Console.WriteLine("  " + line);
        }
        loop.Stop();
    }
}
