// A static constructor that loads its state synchronously from a static async method of its own
// class (sync over async: LoadAsync().GetAwaiter().GetResult()), the method resuming on a thread
// pool thread while the constructor still runs on the main thread and waits for it.
using System;
using System.Threading.Tasks;

static class Config
{
    public static readonly string Value;

    static Config()
    {
        Console.WriteLine("Config cctor start");
        Value = LoadAsync().GetAwaiter().GetResult();
        Console.WriteLine("Config cctor end");
    }

    static async Task<string> LoadAsync()
    {
        Console.WriteLine("load start");
        await Task.Yield();
        Console.WriteLine("load resumed");
        return "loaded";
    }
}

static class Program
{
    static void Main()
    {
        Console.WriteLine("main");
        Console.WriteLine(Config.Value);
    }
}
