// awaits inside ?:, ??, ?. and switch expressions, with values pushed before the conditional and
// awaits on one or both arms; the arms produce different runtime types of a common base.
using System;
using System.Threading.Tasks;

class Animal { public virtual string Sound => "..."; }
sealed class Dog : Animal { public override string Sound => "woof"; }
sealed class Cat : Animal { public override string Sound => "meow"; }

static class Program
{
    static bool Suspend;

    static async Task<int> I(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<string?> MaybeS(string? v)
    {
        if (Suspend) await Task.Delay(1);
        return v;
    }

    static async Task<int?> MaybeI(int? v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<Dog> NewDog()
    {
        if (Suspend) await Task.Yield();
        return new Dog();
    }

    static async Task<string> Ternary(bool c)
    {
        int x = 100 + (c ? await I(1) : 2) * (c ? 3 : await I(4));
        string s = "<" + (c ? await MaybeS("yes") : await MaybeS("no")) + ">";
        Animal a = c ? await NewDog() : new Cat();
        return $"{x} {s} {a.Sound} {(await I(0) == 0 ? "zero" : "nonzero")}";
    }

    static async Task<string> Coalesce(string? p, int? q)
    {
        string a = p ?? await MaybeS("fallback") ?? "last";
        string b = "[" + (await MaybeS(p) ?? await MaybeS(null) ?? "none") + "]";
        int c = 1000 + (q ?? await I(7));
        int d = (await MaybeI(q) ?? -1) * 2;
        p ??= await MaybeS("assigned");
        return $"{a} {b} {c} {d} {p}";
    }

    static async Task<string> NullConditional(string? p)
    {
        int? len = (await MaybeS(p))?.Length;
        string upper = (await MaybeS(p))?.ToUpperInvariant() ?? "<null>";
        return $"{len?.ToString() ?? "null"} {upper}";
    }

    static async Task<string> SwitchExpression(int k)
    {
        return "k:" + (k switch
        {
            0 => "zero",
            1 => "one+" + await I(1),
            < 0 => "neg" + await MaybeS("ative"),
            _ => (await I(k) % 2 == 0) ? "even" : "odd",
        });
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Ternary(true));
            Console.WriteLine(await Ternary(false));
            Console.WriteLine(await Coalesce("given", 5));
            Console.WriteLine(await Coalesce(null, null));
            Console.WriteLine(await NullConditional("abc"));
            Console.WriteLine(await NullConditional(null));
            foreach (var k in new[] { -3, 0, 1, 4, 9 })
                Console.WriteLine(await SwitchExpression(k));
        }
    }
}
