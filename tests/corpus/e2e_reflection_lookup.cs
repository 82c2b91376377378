// Found adopting Async2 on a real project: code that looks async methods up by name through
// reflection, with binding flags that include non-public members (unit tests invoking a private
// async helper, plugin and command dispatchers, serializers). Classic async, and the runtime's own
// runtime async, have exactly one method of that name; the rewritten assembly must not add another
// visible one (README: "reflection ... see[s] the same API as before"), or GetMethod throws
// AmbiguousMatchException and name-based counts change.
using System;
using System.Linq;
using System.Reflection;
using System.Threading.Tasks;

class Service
{
    private int _calls;

    private async Task<int> ComputeAsync(int x, bool suspend)
    {
        if (suspend) await Task.Yield();
        _calls++;
        return x * 2;
    }

    public async Task<string> DescribeAsync(bool suspend)
    {
        if (suspend) await Task.Delay(1);
        return "calls=" + _calls;
    }

    protected virtual async ValueTask ResetAsync(bool suspend)
    {
        if (suspend) await Task.Yield();
        _calls = 0;
    }
}

static class Program
{
    private static async Task<string> HelperAsync(string s, bool suspend)
    {
        if (suspend) await Task.Yield();
        return s.ToUpperInvariant();
    }

    const BindingFlags All = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;

    static void Lookup(Type type, string name)
    {
        try
        {
            var method = type.GetMethod(name, All);
            Console.WriteLine($"{type.Name}.{name}: found, returns {method?.ReturnType.Name}, {method?.GetParameters().Length} parameter(s)");
        }
        catch (AmbiguousMatchException)
        {
            Console.WriteLine($"{type.Name}.{name}: AmbiguousMatchException");
        }
        Console.WriteLine($"  methods named {name}: {type.GetMethods(All).Count(m => m.Name == name)}, members: {type.GetMember(name, All).Length}");
    }

    static async Task Main()
    {
        Lookup(typeof(Service), "ComputeAsync");
        Lookup(typeof(Service), "DescribeAsync");
        Lookup(typeof(Service), "ResetAsync");
        Lookup(typeof(Program), "HelperAsync");

        foreach (var suspend in new[] { false, true })
        {
            Console.WriteLine($"-- suspend={suspend}");
            var service = new Service();
            try
            {
                var compute = typeof(Service).GetMethod("ComputeAsync", BindingFlags.NonPublic | BindingFlags.Instance)!;
                Console.WriteLine("ComputeAsync via reflection: " + await (Task<int>)compute.Invoke(service, [21, suspend])!);
                var helper = typeof(Program).GetMethod("HelperAsync", BindingFlags.NonPublic | BindingFlags.Static)!;
                Console.WriteLine("HelperAsync via reflection: " + await (Task<string>)helper.Invoke(null, ["abc", suspend])!);
            }
            catch (AmbiguousMatchException e)
            {
                Console.WriteLine("lookup failed: " + e.GetType().Name);
            }
            Console.WriteLine(await service.DescribeAsync(suspend));
        }
    }
}
