// Fixture: an async iterator beside runtime-async methods. Roslyn builds async iterators as classic
// state machines even with runtime-async=on, so a rewrite leaves this one classic (CliTests).
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

static class Program
{
    static async IAsyncEnumerable<int> Numbers()
    {
        for (int i = 1; i <= 3; i++)
        {
            await Task.Yield();
            yield return i;
        }
    }

    static async Task<int> Sum()
    {
        int sum = 0;
        await foreach (int n in Numbers())
            sum += n;
        return sum;
    }

    static async Task Main() => Console.WriteLine(await Sum());
}
