// `static async Task Main()` without arguments whose body suspends before its first output and
// between outputs, calls async methods of several classes, and ends after a final await; output is
// flushed before the process exits with code 0.
using System;
using System.Threading.Tasks;

sealed class Greeter
{
    private readonly string name;
    public Greeter(string name) => this.name = name;

    public async Task<string> Greet(bool suspend)
    {
        if (suspend) await Task.Yield();
        return "hello " + name;
    }
}

static class Program
{
    static async Task<int> Twice(int v, bool suspend)
    {
        if (suspend) await Task.Delay(1);
        return 2 * v;
    }

    static async Task Main()
    {
        await Task.Yield();
        foreach (var suspend in new[] { false, true })
        {
            Console.WriteLine($"-- suspend={suspend}");
            var g = new Greeter("world");
            Console.WriteLine(await g.Greet(suspend));
            Console.WriteLine(await Twice(await Twice(5, suspend), suspend));
        }
        await Task.Delay(1);
        Console.WriteLine("done");
    }
}
