// AsyncLocal values of chains running at the same time do not mix: several chains started together,
// each setting its own value and suspending at different points, each see only their own value after
// every await; the starter's value is unchanged; a recursive chain sets a value per level and each
// level sees its own after its callees return; values are seen in catch blocks and exception filters
// after suspensions.
using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static readonly AsyncLocal<int> Id = new AsyncLocal<int>();

    static async Task Pause(int ms)
    {
        if (Suspend) await Task.Delay(ms);
    }

    static async Task<bool> Chain(int id)
    {
        Id.Value = id;
        bool ok = true;
        for (int i = 0; i < 4; i++)
        {
            await Pause((id + i) % 3);
            ok &= Id.Value == id;
            ok &= await Inner(id) == id;
            ok &= Id.Value == id;
        }
        return ok;
    }

    static async Task<int> Inner(int expected)
    {
        int seen = Id.Value;
        Id.Value = -expected;
        await Pause(1);
        return seen;
    }

    static async Task<string> Levels(int depth)
    {
        Id.Value = depth;
        if (depth == 0)
        {
            await Pause(1);
            return "0";
        }
        string below = await Levels(depth - 1);
        await Pause(1);
        return below + "," + Id.Value;
    }

    static bool Matches(int expected) => Id.Value == expected;

    static async Task<string> InHandlers()
    {
        Id.Value = 7;
        try
        {
            await Pause(1);
            Id.Value = 8;
            await Inner(8);
            throw new InvalidOperationException();
        }
        catch (InvalidOperationException) when (Matches(8))
        {
            await Pause(1);
            return "filter and catch saw " + Id.Value;
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Id.Value = 1000;
            bool[] results = await Task.WhenAll(Enumerable.Range(1, 8).Select(Chain));
            Console.WriteLine("chains kept their values: " + string.Join(",", results).ToLowerInvariant());
            Console.WriteLine("starter still " + Id.Value);
            Console.WriteLine("levels " + await Levels(5));
            Console.WriteLine(await InHandlers());
            Console.WriteLine("starter still " + Id.Value);
        }
    }
}
