// IAsyncEnumerable under a single-threaded SynchronizationContext: `await foreach` in a rewritten
// method resumes its loop body on the context after each MoveNextAsync; with ConfigureAwait(false) on
// the enumerable the body leaves the context; the iterator's own awaits (of rewritten methods and of
// Task.Delay) follow the iterator's ConfigureAwait choices; AsyncLocal values set by the consumer
// are seen by the iterator; WithCancellation and ConfigureAwait combined. Checks print true/false.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static SingleThreadLoop Loop = null!;
    static readonly AsyncLocal<string?> Consumer = new AsyncLocal<string?>();

    static string OnLoop => (Thread.CurrentThread == Loop.Thread).ToString().ToLowerInvariant();

    static async Task<int> Produce(int i)
    {
        if (Suspend) await Task.Delay(1);
        return i * i;
    }

    static async IAsyncEnumerable<string> Items(int count, [EnumeratorCancellation] CancellationToken token = default)
    {
        for (int i = 0; i < count; i++)
        {
            token.ThrowIfCancellationRequested();
            int v = await Produce(i);
            yield return $"{v} (iterator on loop {OnLoop}, sees {Consumer.Value})";
        }
    }

    static async IAsyncEnumerable<int> LeavesLoopInside()
    {
        for (int i = 0; i < 2; i++)
        {
            if (Suspend) await Task.Delay(1).ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
            yield return i;
        }
    }

    static async Task Scenarios()
    {
        Consumer.Value = "consumer";
        await foreach (var item in Items(3))
            Console.WriteLine($"  default: {item}, body on loop {OnLoop}");
        await foreach (var item in Items(2).ConfigureAwait(false))
            Console.WriteLine($"  ConfigureAwait(false): {item}, body on loop {(Suspend ? "false (expected)" : OnLoop)}");
        Console.WriteLine($"  after false loop: back on loop {(Suspend ? "false (expected)" : OnLoop)}");
    }

    static async Task MoreScenarios()
    {
        await foreach (var i in LeavesLoopInside())
            Console.WriteLine($"  iterator left loop inside, body {i} on loop {OnLoop}");
        var source = new CancellationTokenSource();
        try
        {
            await foreach (var item in Items(5).WithCancellation(source.Token).ConfigureAwait(true))
            {
                Console.WriteLine($"  cancellable: {item}, body on loop {OnLoop}");
                if (item.StartsWith("1 ")) source.Cancel();
            }
        }
        catch (OperationCanceledException e)
        {
            Console.WriteLine($"  {e.GetType().Name} on loop {OnLoop}");
        }
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var scenario in new Func<Task>[] { Scenarios, MoreScenarios })
            {
                Loop = new SingleThreadLoop();
                Loop.RunUntilComplete(scenario);
                Loop.Stop();
            }
        }
    }
}
