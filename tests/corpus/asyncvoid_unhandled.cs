// An async void method without a SynchronizationContext that throws after awaiting a rewritten
// method: the exception is rethrown on the thread pool and ends the process, as in classic async,
// after the lines printed before it. The exit code and the first line of stderr are compared.
using System;
using System.Threading;
using System.Threading.Tasks;

static class Program
{
    static async Task<int> Compute()
    {
        await Task.Delay(1);
        return 42;
    }

    static async void Crashes()
    {
        int v = await Compute();
        Console.WriteLine("async void computed " + v);
        throw new InvalidOperationException("unhandled in async void");
    }

    static void Main()
    {
        Console.WriteLine("starting");
        Crashes();
        Thread.Sleep(Timeout.Infinite);
    }
}
