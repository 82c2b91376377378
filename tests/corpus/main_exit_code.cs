// `static async Task<int> Main(string[] args)` returning a non-zero exit code (3) after suspending
// awaits, so the exit code flows through the rewritten entry point; args is empty.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> Count(string[] args)
    {
        if (Suspend) await Task.Delay(1);
        return args.Length;
    }

    static async Task<int> Main(string[] args)
    {
        int code = 0;
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            int n = await Count(args);
            Console.WriteLine($"args={n}");
            if (suspend) await Task.Yield();
            code += n + 1;
        }
        Console.WriteLine("exiting with " + (code + 1));
        return code + 1;
    }
}
