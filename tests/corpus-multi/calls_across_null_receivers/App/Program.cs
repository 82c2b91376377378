using System;
using System.Threading.Tasks;
using Nulls;

sealed class AppService : Service
{
    public override async Task<int> Virtual(int x) { Log.Add("App.Virtual ran"); await Log.Maybe(); return x + 7; }
}

struct Point { public int X; public override string ToString() => "P" + X; }

static class Program
{
    static int s_effects;
    static int Effect(int v) { s_effects++; Log.Add("effect " + v); return v; }
    static bool Note(Exception e) { Log.Add("filter saw " + e.GetType().Name); return e is NullReferenceException; }

    static async Task<T?> Null<T>() where T : class { await Log.Maybe(); return null; }

    static async Task Check(string label, Func<Task<string>> body)
    {
        Log.Lines.Clear();
        string result;
        try { result = await body(); }
        catch (Exception e) { result = "escaped " + e.GetType().Name; }
        Console.WriteLine($"{label}: {result} | {string.Join(", ", Log.Lines)}");
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Log.Suspend = suspend;
            s_effects = 0;
            Console.WriteLine($"-- suspend={suspend}");
            Service? s = null;
            Service? sealedAsBase = null;
            SealedService? sealedS = null;
            ClassicService? cs = null;
            AppService? app = null;
            IService? iface = null;
            Shape? shape = null;
            Box<Point>? boxP = null;
            Box<string>? boxS = null;
            var holder = new Holder();

            await Check("plain", async () => "" + (1 + await s!.Plain(Effect(1))));
            await Check("never reads this", async () => "" + (2 * await s!.NeverReadsThis(Effect(2))));
            await Check("valuetask", async () => $"{Effect(3)} {await s!.Value(4)}");
            await Check("void", async () => { await s!.Void("x" + Effect(5)); return "done"; });
            await Check("closure", async () => "" + (10 - await s!.Closure(6)));
            await Check("generic method", async () => "" + await s!.Generic(new Point { X = Effect(7) }));
            await Check("generic method class", async () => "" + await s!.Generic("str"));
            await Check("virtual", async () => "" + (3 + await s!.Virtual(8)));
            await Check("virtual via base of sealed", async () => "" + await sealedAsBase!.Virtual(9));
            await Check("sealed override", async () => "" + await sealedS!.Virtual(9));
            await Check("classic override", async () => "" + await cs!.Virtual(10));
            await Check("classic own", async () => "" + await cs!.Own(11));
            await Check("app override", async () => "" + await app!.Virtual(12));
            await Check("interface", async () => "" + await iface!.Iface(13));
            await Check("dim", async () => "" + await iface!.Dim(14));
            await Check("abstract", async () => "" + await shape!.Area());
            await Check("abstract caller", async () => await shape!.Describe());
            await Check("generic type struct", async () => "" + await boxP!.Get());
            await Check("generic type class", async () => "" + await boxS!.Get());
            await Check("generic pair", async () => "" + await boxS!.Pair(Effect(15)));
            await Check("generic virtual", async () => "x" + await boxP!.Show());
            await Check("recursive", async () => "" + await s!.Recursive(3));
            await Check("field receiver", async () => "" + (Effect(16) + await holder.Service!.Plain(Effect(17))));
            await Check("nested field", async () => "" + await holder.Next!.Service!.Plain(18));
            await Check("awaited null", async () => "" + (5 + await (await Null<Service>())!.Plain(19)));
            await Check("conditional", async () => "" + (await (s?.Plain(20) ?? Task.FromResult(-1))));
            await Check("lib calls on null", async () => await LibCalls.CallOn(null, 21));

            await Check("filter", async () =>
            {
                int below = 100;
                try { below += await s!.Plain(22); return "no"; }
                catch (Exception e) when (Note(e)) { return "filtered " + below; }
            });
            await Check("finally", async () =>
            {
                string text = "start";
                try
                {
                    try { text += await s!.Virtual(23); }
                    finally { Log.Add("finally ran, text=" + text); }
                }
                catch (NullReferenceException) { text += " caught"; }
                return text;
            });
            await Check("after a real await", async () =>
            {
                var svc = new Service();
                int a = await svc.Plain(1);
                svc = null;
                return "" + (a + await svc!.Plain(24));
            });
            await Check("in loop", async () =>
            {
                Service?[] all = { new Service(), null, new SealedService() };
                string r = "";
                foreach (var x in all)
                {
                    try { r += await x!.Virtual(1) + ";"; }
                    catch (NullReferenceException) { r += "NRE;"; }
                }
                return r;
            });
            Console.WriteLine($"effects={s_effects}");
        }
    }
}
