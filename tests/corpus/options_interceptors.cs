// csc: /features:InterceptorsNamespaces=Interception /nowarn:CS9270
// C# interceptors ([InterceptsLocation], path form) replacing calls inside async methods: an awaited
// Task call, an awaited ValueTask<T> instance call, a sync call between awaits, a generic call and an
// extension-method call; interceptors that are themselves async or return the original's task.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

namespace System.Runtime.CompilerServices
{
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    sealed class InterceptsLocationAttribute(string filePath, int line, int character) : Attribute { }
}

public class Service
{
    public string Name = "svc";
    public async Task<int> GetAsync(int id) { if (Program.Suspend) await Task.Yield(); return id; }
    public async ValueTask<string> DescribeAsync(int id) { if (Program.Suspend) await Task.Yield(); return $"{Name}#{id}"; }
    public int Sync(int x) => x;
    public static async Task LogAsync(List<string> log, string s) { if (Program.Suspend) await Task.Yield(); log.Add("orig:" + s); }
    public static T Echo<T>(T t) => t;
}

public static class Ext
{
    public static async Task<string> Shout(this string s) { if (Program.Suspend) await Task.Yield(); return s.ToUpperInvariant(); }
}

namespace Interception
{
    static class Interceptors
    {
        [InterceptsLocation("options_interceptors.cs", 70, 27)]
        public static async Task<int> GetAsyncCached(this Service s, int id)
        {
            if (Program.Suspend) await Task.Delay(1);
            return id * 1000 + await s.GetAsync(id); // not intercepted: another location
        }

        [InterceptsLocation("options_interceptors.cs", 71, 30)]
        public static ValueTask<string> DescribeFast(this Service s, int id) => ValueTask.FromResult("fast:" + id);

        [InterceptsLocation("options_interceptors.cs", 72, 21)]
        public static int SyncTwice(this Service s, int x) => x * 2;

        [InterceptsLocation("options_interceptors.cs", 73, 23)]
        public static Task LogIntercepted(List<string> log, string s)
        {
            log.Add("icpt:" + s);
            return Service.LogAsync(log, s + "!");
        }

        [InterceptsLocation("options_interceptors.cs", 74, 25)]
        public static T EchoLogged<T>(T t) { Console.WriteLine($"  echo<{typeof(T).Name}>({t})"); return t; }

        [InterceptsLocation("options_interceptors.cs", 75, 34)]
        public static async Task<string> Whisper(this string s) { await Task.Yield(); return s.ToLowerInvariant() + "..."; }
    }
}

static class Program
{
    public static bool Suspend;

    static async Task<string> Work(Service svc)
    {
        var log = new List<string>();
        int a = await svc.GetAsync(7); // @GET
        string d = await svc.DescribeAsync(3); // @DESC
        int b = svc.Sync(await svc.GetAsync(2)); // @SYNC
        await Service.LogAsync(log, "x"); // @LOG
        var e = Service.Echo(await svc.GetAsync(5)); // @ECHO
        string w = await "Hello".Shout(); // @SHOUT
        string w2 = await "Hello".Shout();
        try
        {
            int c = await svc.GetAsync(a) + b;
            return $"{a} {d} {b} {string.Join(",", log)} {e} {w} {w2} {c}";
        }
        finally { await svc.DescribeAsync(0); }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine(await Work(new Service()));
        }
    }
}
