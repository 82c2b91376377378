// Fixture: localloc (stackalloc) in an async method, which Async2 must refuse with a diagnostic.
using System;
using System.Threading.Tasks;

static class Program
{
    static async Task<int> Sum()
    {
        int total = 0;
        {
            Span<int> scratch = stackalloc int[4];
            for (int i = 0; i < scratch.Length; i++)
                scratch[i] = i;
            foreach (var value in scratch)
                total += value;
        }
        await Task.Delay(1);
        return total;
    }

    static async Task Main() => Console.WriteLine(await Sum());
}
