// AsyncLocal<T> values across awaits: a value set before an await is seen after it (on whatever
// thread resumes); a callee's changes, before and after its own suspension, are not seen by its
// awaiting caller once the callee returns (classic async restores the ExecutionContext per method);
// changes made in the caller after starting a task are not seen by that task.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static readonly AsyncLocal<string?> Name = new AsyncLocal<string?>();
    static readonly AsyncLocal<int> Depth = new AsyncLocal<int>();

    static async Task Tick()
    {
        if (Suspend) await Task.Delay(1);
    }

    static async Task<string> Callee(string set)
    {
        string seen = Name.Value ?? "null";
        Name.Value = set + "-before";
        Depth.Value++;
        await Tick();
        seen += "/" + Name.Value;
        Name.Value = set + "-after";
        return seen;
    }

    static async Task CalleeNoSuspend()
    {
        Name.Value = "sync-change";
        Depth.Value = 99;
    }

    static async Task<string> Caller()
    {
        Name.Value = "caller";
        Depth.Value = 1;
        await Tick();
        string s = "after tick " + Name.Value;
        string inner = await Callee("c1");
        s += " | callee saw " + inner + ", caller now " + Name.Value + " depth " + Depth.Value;
        await CalleeNoSuspend();
        s += " | after sync callee " + Name.Value + " depth " + Depth.Value;
        var started = Callee("c2");
        Name.Value = "changed-after-start";
        string second = await started;
        s += " | started callee saw " + second + ", caller now " + Name.Value;
        return s;
    }

    static async Task<string> Recursive(int n)
    {
        Depth.Value = n;
        if (n == 0)
        {
            await Tick();
            return "0";
        }
        string below = await Recursive(n - 1);
        return below + "," + Depth.Value;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Name.Value = null;
            Depth.Value = 0;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Caller());
            Console.WriteLine("main sees " + (Name.Value ?? "null") + " depth " + Depth.Value);
            Console.WriteLine("recursive " + await Recursive(4));
        }
    }
}
