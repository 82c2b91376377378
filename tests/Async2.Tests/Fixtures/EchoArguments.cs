// Fixture: prints each argument it was given on its own line, bracketed, after a suspension (so
// `async2 run` rewrites it); the exit code is the number of arguments.
using System;
using System.Threading.Tasks;

static class Program
{
    static async Task<int> Main(string[] args)
    {
        await Task.Yield();
        foreach (var arg in args)
            Console.WriteLine($"[{arg}]");
        return args.Length;
    }
}
