// AsyncLocal values flow into continuations: a value set before an await is seen after it whatever
// thread resumes (Task.Delay, Task.Yield, a TaskCompletionSource completed on another thread,
// ValueTask), values set in a loop between awaits, and tasks started with Task.Run inherit the
// value current when they start, not later changes.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static readonly AsyncLocal<string?> Tag = new AsyncLocal<string?>();
    static readonly AsyncLocal<int> Counter = new AsyncLocal<int>();

    static Task<int> CompletedElsewhere(int value)
    {
        if (!Suspend)
            return Task.FromResult(value);
        var source = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var thread = new Thread(() => { Thread.Sleep(5); source.SetResult(value); });
        thread.Start();
        return source.Task;
    }

    static async ValueTask<int> ValueTaskStep(int v)
    {
        if (Suspend) await Task.Yield();
        return v + Counter.Value;
    }

    static async Task<string> Steps()
    {
        Tag.Value = "steps";
        string s = "start=" + Tag.Value;
        if (Suspend) await Task.Delay(2);
        s += " delay=" + Tag.Value;
        if (Suspend) await Task.Yield();
        s += " yield=" + Tag.Value;
        int v = await CompletedElsewhere(5);
        s += " thread=" + Tag.Value + ":" + v;
        for (int i = 0; i < 3; i++)
        {
            Counter.Value = i * 10;
            int w = await ValueTaskStep(i);
            s += " loop" + i + "=" + w + "/" + Counter.Value;
        }
        return s;
    }

    static async Task<string> Children()
    {
        Tag.Value = "parent";
        var child = Task.Run(async () =>
        {
            string seen = Tag.Value ?? "null";
            if (Suspend) await Task.Yield();
            Tag.Value = "child";
            return seen + "->" + Tag.Value;
        });
        Tag.Value = "parent-later";
        string fromChild = await child;
        return "child " + fromChild + ", parent " + Tag.Value;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Steps());
            Console.WriteLine("main after steps: " + (Tag.Value ?? "null") + " " + Counter.Value);
            Console.WriteLine(await Children());
            Console.WriteLine("main after children: " + (Tag.Value ?? "null"));
        }
    }
}
