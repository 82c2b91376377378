// A static constructor that starts a static async method of its own class and then fails: the
// method, suspended, resumes after the type's initialization failed, and finishes its work as in
// classic async (it touches none of the failed type's static fields).
using System;
using System.Threading.Tasks;

static class Shared
{
    public static readonly TaskCompletionSource Gate = new();
    public static Task<int>? Pending;
}

static class Plugin
{
    static Plugin()
    {
        Console.WriteLine("Plugin cctor");
        Shared.Pending = WarmUpAsync(20);
        throw new InvalidOperationException("plugin misconfigured");
    }

    public static void Touch() { }

    static async Task<int> WarmUpAsync(int x)
    {
        Console.WriteLine("warm-up start");
        await Shared.Gate.Task;
        Console.WriteLine("warm-up resumed");
        return x + 1;
    }
}

static class Program
{
    static async Task Main()
    {
        try
        {
            Plugin.Touch();
        }
        catch (TypeInitializationException e)
        {
            Console.WriteLine("init failed: " + e.InnerException!.Message);
        }
        Shared.Gate.SetResult();
        try
        {
            Console.WriteLine("warm-up result " + await Shared.Pending!);
        }
        catch (Exception e)
        {
            Console.WriteLine("warm-up failed: " + e.GetType().Name);
        }
    }
}
