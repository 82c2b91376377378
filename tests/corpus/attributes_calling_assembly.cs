// Assembly.GetExecutingAssembly() inside async methods before and after a suspension (resource
// helpers use it; GetCallingAssembly, a stack walk, differs by design: docs/design.md, Reflection), and Type.GetType(string) with a name that is not
// assembly-qualified (resolved in the calling assembly), from async methods, lambdas and generic
// methods.
using System;
using System.Reflection;
using System.Threading.Tasks;

namespace App.Models
{
    sealed class Customer { public override string ToString() => "a customer"; }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static string Name(Assembly a) => a.GetName().Name == typeof(Program).Assembly.GetName().Name ? "app" : a.GetName().Name!;

    static async Task<string> Executing()
    {
        string before = Name(Assembly.GetExecutingAssembly());
        await Pause();
        return $"executing {before} {Name(Assembly.GetExecutingAssembly())}";
    }

    static async Task<string> Resolve(string typeName)
    {
        var before = Type.GetType(typeName);
        await Pause();
        var after = Type.GetType(typeName);
        return $"{typeName}: {before?.Name ?? "null"} {after?.Name ?? "null"} {(after is null ? "" : Activator.CreateInstance(after))}";
    }

    static async Task<string> Generic<T>(string typeName)
    {
        await Pause();
        return $"{typeof(T).Name} {Type.GetType(typeName)?.FullName ?? "null"}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Executing());
            Console.WriteLine(await Resolve("App.Models.Customer"));
            Console.WriteLine(await Resolve("System.Int32"));
            Console.WriteLine(await Resolve("Nope.Missing"));
            Console.WriteLine(await Generic<int>("App.Models.Customer"));
            Func<Task<string>> lambda = async () => { await Pause(); return Type.GetType("App.Models.Customer")?.Name ?? "null"; };
            Console.WriteLine(await lambda());
        }
    }
}
