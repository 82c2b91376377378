// Nested params ReadOnlySpan<T> calls whose inline-array buffers of the same type are partly filled across awaits at the same time (outer and inner buffers both live at an await), in a loop-called method with try/catch/finally awaits and a throw expression among the elements, and a generic version (shared code for string, boxed and struct tuple T) in a loop.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();
    static async Task<T> V<T>(T x) { s_log.Add($"V({x})"); if (s_suspend) await Task.Yield(); return x; }
    static T L<T>(T x) { s_log.Add($"L({x})"); return x; }
    static string Cat(params ReadOnlySpan<string> parts) => "(" + string.Join(" ", parts.ToArray()) + ")";
    static string Gen<T>(params ReadOnlySpan<T> parts) => "<" + string.Join(" ", parts.ToArray()) + ">";
    static string Flush() { var s = string.Join(" ", s_log); s_log.Clear(); return s; }

    static async Task<string> Nested(int i)
    {
        string a = Cat(L("a" + i), await V("b"), L("c"));
        string b = Cat(await V("d"), Cat(L("e"), await V("f" + i), L("g")), await V("h"));
        string c = Cat(Cat(await V("i"), L("j"), await V("k")), Cat(L("l"), Cat(await V("m"), "n", await V("o")), await V("p")), L("q"));
        string d = "";
        try
        {
            d = Cat(L("r"), i == 1 ? throw new InvalidOperationException("boom" + i) : await V("s"), Cat(await V("t"), "u", "v"));
        }
        catch (InvalidOperationException e) { d = Cat(await V(e.Message), L("x"), "y"); }
        finally { d += Cat(await V("fin"), L("z"), "w"); }
        return $"{a}{b}{c}{d}";
    }

    static async Task<string> NestedGen<T>(T x, T y)
    {
        string a = Gen(L(x), await V(y), x);
        string b = Gen<object>(await V((object)x!), Gen(L(y), await V(x), y), await V((object?)null));
        var list = new List<string>();
        for (int k = 0; k < 2; k++)
            list.Add(Gen<object>(await V(x), Gen(x, await V(y), L(y)), x) + Gen<T>(await V(y), x, y));
        return a + b + string.Join("", list);
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            for (int i = 0; i < 3; i++)
            {
                Console.WriteLine($"  {await Nested(i)} | {Flush()}");
            }
            Console.WriteLine($"  {await NestedGen("p", "q")} | {Flush()}");
            Console.WriteLine($"  {await NestedGen(1, 2)} | {Flush()}");
            Console.WriteLine($"  {await NestedGen((1L, "a"), (2L, "b"))} | {Flush()}");
        }
    }
}
