// Seed 002's Base/Derived/MoreDerived: overrides alternate between runtime-async methods (rewritten
// by Async2) and classic state machines ([RuntimeAsyncMethodGeneration(false)] keeps a method
// classic in the runtime-async build), in both orders. Calls go through every static type; a call
// through the base type always reaches the most derived override; base.M() chains walk back up
// through both models, on the synchronous and the suspending path.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

class Base
{
    public virtual async Task<int> Method(int x)
    {
        await Program.Pause();
        Program.Log("Base.Method");
        return x + 1;
    }

    public virtual async Task Touch(List<string> trail)
    {
        await Program.Pause();
        trail.Add("Base");
    }

    public async Task<int> Template(int x) => await Method(x) * 10; // a virtual call from inside the hierarchy
}

class Derived : Base
{
    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<int> Method(int x)
    {
        Program.Log("Derived.Method (classic)");
        int b = await base.Method(x);
        await Program.Pause();
        return b * 2;
    }

    public override async Task Touch(List<string> trail)
    {
        trail.Add("Derived>");
        await base.Touch(trail);
        await Program.Pause();
        trail.Add("<Derived");
    }
}

class MoreDerived : Derived
{
    public override async Task<int> Method(int x)
    {
        await Program.Pause();
        Program.Log("MoreDerived.Method");
        return await base.Method(x) + 1000;
    }

    [RuntimeAsyncMethodGeneration(false)]
    public override async Task Touch(List<string> trail)
    {
        trail.Add("MoreDerived>");
        await base.Touch(trail);
        trail.Add("<MoreDerived");
    }
}

// The other order: a classic root, a rewritten override, a classic override above it.
class ClassicRoot
{
    [RuntimeAsyncMethodGeneration(false)]
    public virtual async Task<string> Name(string s)
    {
        await Program.Pause();
        return "root:" + s;
    }
}

class RewrittenMiddle : ClassicRoot
{
    public override async Task<string> Name(string s)
    {
        var inner = await base.Name(s);
        await Program.Pause();
        return "middle(" + inner + ")";
    }
}

class ClassicTop : RewrittenMiddle
{
    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<string> Name(string s)
    {
        await Program.Pause();
        return "top[" + await base.Name(s) + "]";
    }
}

sealed class RewrittenLeaf : ClassicTop
{
    public override async Task<string> Name(string s) => "leaf{" + await base.Name(s.ToUpperInvariant()) + "}";
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    public static void Log(string what) => Console.WriteLine("  " + what);

    static async Task<int> CallThroughBase(Base b, int x) => await b.Method(x);

    static async Task<string> CallThroughRoot(ClassicRoot r, string s) => await r.Name(s);

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var b in new Base[] { new Base(), new Derived(), new MoreDerived() })
            {
                Console.WriteLine($"{b.GetType().Name}: Method={await CallThroughBase(b, 3)} Template={await b.Template(4)}");
                var trail = new List<string>();
                await b.Touch(trail);
                Console.WriteLine("  touch: " + string.Join(",", trail));
            }
            Derived d = new MoreDerived();
            Console.WriteLine($"through Derived: {await d.Method(5)}");
            MoreDerived md = new MoreDerived();
            Console.WriteLine($"through MoreDerived: {await md.Method(6)}");
            foreach (var r in new ClassicRoot[] { new ClassicRoot(), new RewrittenMiddle(), new ClassicTop(), new RewrittenLeaf() })
                Console.WriteLine($"{r.GetType().Name}: {await CallThroughRoot(r, "x")}");
            Console.WriteLine($"through RewrittenMiddle: {await ((RewrittenMiddle)new RewrittenLeaf()).Name("y")}");
        }
    }
}
