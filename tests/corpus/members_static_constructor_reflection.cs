// A class with an explicit static constructor and a static async method: reflection over the
// class's declared static methods (as a command dispatcher or test runner that invokes every static
// parameterless method does) sees the same methods in classic async and in the rewritten assembly.
using System;
using System.Linq;
using System.Reflection;
using System.Threading.Tasks;

static class Commands
{
    static Commands() { Console.WriteLine("Commands cctor"); }
    public static async Task<int> Load() { await Task.Yield(); return 1; }
}

static class Program
{
    static async Task Main()
    {
        Console.WriteLine(await Commands.Load());
        const BindingFlags flags = BindingFlags.DeclaredOnly | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;
        foreach (var m in typeof(Commands).GetMethods(flags).OrderBy(m => m.Name, StringComparer.Ordinal))
            Console.WriteLine(m.Name);
    }
}
