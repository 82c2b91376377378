// AsyncLocal values around exception handling with suspensions in every part of a try statement: a
// value set in try is seen in catch and finally after awaits there; a callee that throws after
// changing the value does not leak it into the caller's catch, filter or finally; a value set in a
// finally that runs while an exception passes through survives into the outer catch of the same
// method; a using's Dispose sees the value of its scope.
using System;
using System.Threading;
using System.Threading.Tasks;

sealed class Probe : IAsyncDisposable
{
    public async ValueTask DisposeAsync()
    {
        if (Program.Suspend) await Task.Yield();
        Console.WriteLine("  dispose sees " + Program.Now);
    }
}

static class Program
{
    public static bool Suspend;
    static readonly AsyncLocal<string?> Value = new AsyncLocal<string?>();

    public static string Now => Value.Value ?? "null";

    static async Task Pause()
    {
        if (Suspend) await Task.Delay(1);
    }

    static async Task ThrowsAfterChange()
    {
        Value.Value = "callee";
        await Pause();
        throw new InvalidOperationException("callee failed with " + Now);
    }

    static bool Log(string where)
    {
        Console.WriteLine($"  {where} sees {Now}");
        return true;
    }

    static async Task Handlers()
    {
        Value.Value = "method";
        try
        {
            try
            {
                await Pause();
                Value.Value = "in try";
                await ThrowsAfterChange();
            }
            catch (InvalidOperationException e) when (Log("filter"))
            {
                Console.WriteLine("  catch got '" + e.Message + "'");
                await Pause();
                Log("catch after await");
                Value.Value = "in catch";
                throw new ArgumentException("rethrown");
            }
            finally
            {
                await Pause();
                Log("finally after await");
                Value.Value = "in finally";
            }
        }
        catch (ArgumentException)
        {
            Log("outer catch");
        }
        await using (new Probe())
        {
            Value.Value = "in using";
            await Pause();
        }
        Log("after using");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Value.Value = "main";
            await Handlers();
            Console.WriteLine("main sees " + Now);
        }
    }
}
