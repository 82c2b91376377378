// Fixture: an app that shuts down gracefully on SIGTERM and says so; exit code 7.
using System;
using System.Runtime.InteropServices;
using System.Threading.Tasks;

static class Program
{
    static async Task<int> Main()
    {
        var stop = new TaskCompletionSource();
        using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context =>
        {
            context.Cancel = true;
            stop.TrySetResult();
        });
        Console.WriteLine("ready");
        await Task.WhenAny(stop.Task, Task.Delay(TimeSpan.FromSeconds(30)));
        Console.WriteLine(stop.Task.IsCompleted ? "stopping on SIGTERM" : "no signal came");
        return 7;
    }
}
