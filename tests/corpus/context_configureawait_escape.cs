// ConfigureAwait(false) escaping a single-threaded SynchronizationContext: after a pending await with
// false the method runs off the context and later plain awaits stay off it (nothing to capture);
// ConfigureAwait(false) on an already completed task stays on it; a callee that escapes does not take
// its caller along; a caller awaiting a callee with ConfigureAwait(false) leaves the context even
// though the callee itself stayed on it; Task.Run from the context runs without it.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static SingleThreadLoop Loop = null!;

    static string Where()
    {
        bool onThread = Thread.CurrentThread == Loop.Thread;
        bool hasContext = SynchronizationContext.Current == Loop;
        return onThread && hasContext ? "loop" : !onThread && !hasContext ? "pool" : $"mixed({onThread},{hasContext})";
    }

    static Task Pending() => Suspend ? Task.Delay(1) : Task.CompletedTask;

    static async Task<string> Escapes()
    {
        string s = "start " + Where();
        await Task.CompletedTask.ConfigureAwait(false);
        s += ", after completed+false " + Where();
        await Pending().ConfigureAwait(false);
        s += ", after pending+false " + Where();
        await Pending();
        s += ", after plain await " + Where();
        await Task.Yield();
        s += ", after yield " + Where();
        return s;
    }

    static async Task<string> StaysOnLoop()
    {
        await Pending();
        return "callee stayed on " + Where();
    }

    static async Task<string> Scenarios()
    {
        string s = await Escapes();
        s += "\ncaller after escaping callee: " + Where();
        s += "\n" + await StaysOnLoop().ConfigureAwait(false) + ", caller after false: " + Where();
        return s;
    }

    static async Task<string> TaskRunFromLoop()
    {
        string inner = await Task.Run(async () =>
        {
            string w = "Task.Run body " + Where();
            await Pending();
            return w + ", after await " + Where();
        });
        return inner + "; awaiting caller back on " + Where();
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var scenario in new Func<Task<string>>[] { Scenarios, TaskRunFromLoop })
            {
                Loop = new SingleThreadLoop();
                Loop.RunUntilComplete(async () => Console.WriteLine(await scenario()));
                Loop.Stop();
            }
        }
    }
}
