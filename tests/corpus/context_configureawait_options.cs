// ConfigureAwait(ConfigureAwaitOptions) on a single-threaded loop: ForceYielding suspends even on a
// completed task (and with ContinueOnCapturedContext comes back to the loop, without it leaves),
// SuppressThrowing turns a faulted or canceled Task into a normal completion, None leaves the loop
// after a real suspension, and an awaiting caller always comes back to the loop.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static SingleThreadLoop Loop = null!;

    static string Here => Loop.IsCurrent ? "loop" : "pool";

    static Task Pending() => Suspend ? Task.Delay(1) : Task.CompletedTask;

    static async Task Faults()
    {
        await Pending();
        throw new InvalidOperationException("fault");
    }

    static async Task<string> Options()
    {
        string s = "start " + Here;
        await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding | ConfigureAwaitOptions.ContinueOnCapturedContext);
        s += ", force-yield on context " + Here;
        var faulted = Faults();
        await faulted.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing | ConfigureAwaitOptions.ContinueOnCapturedContext);
        s += ", suppressed " + faulted.Status + " " + Here;
        var canceled = Task.FromCanceled(new CancellationToken(true));
        await canceled.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing | ConfigureAwaitOptions.ContinueOnCapturedContext);
        s += ", suppressed " + canceled.Status + " " + Here;
        await Pending().ConfigureAwait(ConfigureAwaitOptions.None);
        s += ", none " + Here;
        await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
        s += ", force-yield off context " + Here;
        return s;
    }

    static async Task Scenario()
    {
        Console.WriteLine(await Options());
        Console.WriteLine("caller " + Here);
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Loop = new SingleThreadLoop();
            Loop.RunUntilComplete(Scenario);
            Loop.Stop();
        }
    }
}
