// Task.WhenEach (an IAsyncEnumerable<Task<T>> in completion order) over rewritten methods consumed with
// await foreach in a rewritten method, results sorted for a stable transcript; an async iterator that
// wraps it and projects each result through another rewritten method; a faulted task delivered in the
// sequence is observed by awaiting it inside the loop.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> Work(int id)
    {
        if (Suspend) await Task.Delay(id % 3);
        if (id == 4) throw new InvalidOperationException("work 4 failed");
        return id * id;
    }

    static async Task<string> Describe(int v)
    {
        if (Suspend) await Task.Yield();
        return "<" + v + ">";
    }

    static async IAsyncEnumerable<string> Described(IEnumerable<Task<int>> tasks)
    {
        await foreach (var task in Task.WhenEach(tasks))
        {
            string text;
            try { text = await Describe(await task); }
            catch (InvalidOperationException e) { text = "!" + e.Message; }
            yield return text;
        }
    }

    static async Task<List<string>> Collect()
    {
        var list = new List<string>();
        await foreach (var s in Described(Enumerable.Range(1, 6).Select(Work)))
            list.Add(s);
        list.Sort(StringComparer.Ordinal);
        return list;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(string.Join(" ", await Collect()));
            int count = 0;
            await foreach (var t in Task.WhenEach(Work(1), Work(2), Work(3)))
                count += t.IsCompletedSuccessfully ? 1 : 0;
            Console.WriteLine("completed " + count);
        }
    }
}
