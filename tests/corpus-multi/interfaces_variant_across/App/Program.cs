using System;
using System.Threading.Tasks;
using Contracts;
using Impls;

sealed class AppStore : CachingStore
{
    public override async Task<string> Load(string key) => "app(" + await base.Load(key) + ")";
}

sealed class Gadget(string name) : IFactory<Gadget>
{
    public static async Task<Gadget> Create(int seed) { await Pause.Maybe(); return new Gadget("g" + seed); }
    public static async Task<string> Label() => "gadget label";
    public string Show() => name;
}

sealed class AppHandler : IHandler<object>, IHandler<string>
{
    public async Task<string> Handle(object item) { await Pause.Maybe(); return "app obj " + item; }
    public async Task<string> Handle(string item) { await Pause.Maybe(); return "app str " + item; }
}

static class Program
{
    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Pause.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (IStore s in new IStore[] { new MemoryStore(), new ClassicStore(), new CachingStore(), new AppStore() })
            {
                Console.WriteLine($"{s.GetType().Name}: {await Use.Store(s)}");
                string viaApp;
                try { viaApp = $"{await s.LoadOrDefault("a")} {await s.LoadOrDefault("zz", "fb")} {await s.Size()}"; }
                catch (Exception e) { viaApp = e.GetType().Name; }
                Console.WriteLine($"  app: {viaApp}");
                if (s is ICachingStore c)
                    Console.WriteLine($"  caching: {await c.Size()} {await ((IStore)c).Size()}");
            }
            foreach (IHandler<string> h in new IHandler<string>[] { new ObjectHandler(), new StringHandler(), new AppHandler() })
                Console.WriteLine($"{h.GetType().Name}: {await Use.Strings(h)} | app {await h.Handle("q")} {await h.HandleAll(new[] { "r" })}");
            IHandler<object> oh = new StringHandler();
            Console.WriteLine("as object: " + await oh.Handle(5) + " " + await oh.HandleAll(new object[] { 1, "two" }));
            Console.WriteLine(await Use.Make<Widget>(4));
            Console.WriteLine(await Use.Make<Gadget>(5));
        }
    }
}
