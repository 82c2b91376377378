// Fixture: what Async2.Runtime's metadata update handler (HotReloadGuard.cs) does when a hot reload
// host reports edits, called here as the host's agent calls it. An edit of a type without async
// methods goes on; an edit of a type whose async methods were rewritten stops the app.
using System;
using System.Linq;
using System.Reflection;
using System.Reflection.Metadata;
using System.Threading.Tasks;

static class SyncOnly
{
    public static int Twice(int x) => x * 2;
}

static class Program
{
    static async Task<int> Compute(int x)
    {
        await Task.Yield();
        return SyncOnly.Twice(x);
    }

    static async Task Main()
    {
        Console.WriteLine($"computed {await Compute(21)}");
        var runtime = AppDomain.CurrentDomain.GetAssemblies().FirstOrDefault(a => a.GetName().Name == "Async2.Runtime");
        var handlers = runtime?.GetCustomAttributes<MetadataUpdateHandlerAttribute>().Select(h => h.HandlerType).ToList() ?? [];
        Console.WriteLine($"handlers: {string.Join(", ", handlers.Select(h => h.Name))}");
        foreach (var handler in handlers)
        {
            var update = handler.GetMethod("UpdateApplication", BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic, [typeof(Type[])])!;
            update.Invoke(null, [new[] { typeof(SyncOnly) }]);
            Console.WriteLine("after an edit of SyncOnly: running");
            update.Invoke(null, [new[] { typeof(Program) }]);
            Console.WriteLine("after an edit of Program: running");
        }
    }
}
