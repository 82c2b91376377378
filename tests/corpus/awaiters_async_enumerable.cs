// interop with compiler state machines that runtime-async leaves alone: `await foreach` over async
// iterators (IAsyncEnumerable<T>, whose MoveNextAsync returns ValueTask<bool>) that themselves await
// rewritten methods, breaking out early (DisposeAsync runs the iterator's finally), WithCancellation,
// ConfigureAwait(false) on the enumerable, and an async void method signalling a TaskCompletionSource.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static string log = "";

    static async Task<int> Square(int v)
    {
        if (Suspend) await Task.Yield();
        return v * v;
    }

    static async IAsyncEnumerable<int> Squares(int count, [EnumeratorCancellation] CancellationToken token = default)
    {
        try
        {
            for (int i = 1; i <= count; i++)
            {
                token.ThrowIfCancellationRequested();
                if (Suspend) await Task.Delay(1);
                yield return await Square(i);
            }
        }
        finally
        {
            log += "[iterator finally]";
        }
    }

    static async Task<string> Consume()
    {
        string s = "";
        await foreach (var x in Squares(4))
            s += x + " ";
        await foreach (var x in Squares(10).ConfigureAwait(false))
        {
            if (x > 10) break;
            s += "<" + x + ">";
        }
        var cts = new CancellationTokenSource();
        try
        {
            await foreach (var x in Squares(10).WithCancellation(cts.Token))
            {
                s += "{" + x + "}";
                if (x == 9) cts.Cancel();
            }
        }
        catch (OperationCanceledException e)
        {
            s += " " + e.GetType().Name;
        }
        return s;
    }

    static async void FireAndSignal(TaskCompletionSource<string> done, int v)
    {
        try
        {
            int r = await Square(v);
            done.SetResult("async void got " + r);
        }
        catch (Exception e)
        {
            done.SetException(e);
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            log = "";
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Consume() + " log=" + log);
            var done = new TaskCompletionSource<string>();
            FireAndSignal(done, 12);
            Console.WriteLine(await done.Task);
        }
    }
}
