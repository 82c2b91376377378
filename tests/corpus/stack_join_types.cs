// Values left on the stack across an await whose type depends on the branch that pushed them
// (a conditional's arms: a small integer and an int constant, two enums, two sealed classes, a
// derived class and its base), arithmetic on 64-bit enums, and float32 arithmetic kept across an await. The rewriter spills such values into
// locals: typed by one arm only, a byte truncated 300 to 44, and a sealed type let the optimizing
// JIT call Dog.ToString on a Cat; typed float64, float32 arithmetic after the await ran in float64.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

sealed class Cat { public override string ToString() => "Cat"; }
sealed class Dog { public override string ToString() => "Dog"; }
class Widget { public virtual string Render() => "widget"; }
sealed class FancyWidget : Widget { public override string Render() => "FANCY"; }
enum Small : byte { A = 1, B = 200 }
enum Signed : short { Negative = -3 }
enum Wide { Huge = 1_000_000 }
[Flags] enum Big : long { Low = 1, High = 1L << 40 }

static class Program
{
    static bool Suspend;
    static readonly Widget Fallback = new();

    static async Task<T> V<T>(T v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<int> Byte(bool flag, byte b) => (flag ? 300 : b) + await V(0);
    static async Task<int> Char(bool flag, char c) => (flag ? -1 : c) + await V(0);
    static async Task<int> Short(bool flag, short s) => (flag ? 100_000 : s) + await V(0);
    static async Task<long> Long(bool flag, uint u) => (flag ? -5L : u) + await V(0L);
    static async Task<int> Enum(bool flag, Small s) => (int)(flag ? Small.B : s) + await V(0);
    // Two enums meet (a cast to int is no instruction), and enums of 64 bits take part in arithmetic.
    static async Task<int> Enums(bool flag, Small s, Signed g, Wide w) => (flag ? (int)g : (int)s) + (flag ? (int)w : (int)s) + await V(0);
    static async Task<long> Big64(Big a, Big b) => (long)((a | b) | await V(Big.Low)) + (long)(~a & await V((Big)(-1L))) + (long)(a - b) + await V(0L);

    static string Show(object o, int k) => o + k.ToString() + (o is Dog ? " is a Dog" : " is not a Dog");
    static async Task<string> Sealed(bool cat) => Show(cat ? new Cat() : new Dog(), await V(1));
    static string Paint(Widget w, int k) => w.Render() + k;
    static async Task<string> Coalesce(FancyWidget? maybe) => Paint(maybe ?? Fallback, await V(1));

    static async Task<string> Floats()
    {
        float price = 0.1f, shipping = 0f, discount = 0.3f;
        float total = (price + shipping) * await V(3f) - discount;
        bool same = (price + shipping) * await V(3f) == 0.3f;
        float negated = -(price * 3f) + await V(0.3f);
        double mixed = (price + 0.2) * await V(3f);
        return $"{total:R} {same} {negated:R} {mixed:R}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine($"{await Byte(true, 7)} {await Byte(false, 7)} {await Char(true, 'x')} {await Char(false, 'x')}");
            Console.WriteLine($"{await Short(true, 5)} {await Long(true, 9)} {await Long(false, uint.MaxValue)} {await Enum(false, Small.A)}");
            Console.WriteLine($"{await Enums(true, Small.A, Signed.Negative, Wide.Huge)} {await Enums(false, Small.A, Signed.Negative, Wide.Huge)} {await Big64(Big.High, Big.Low)}");
            Console.WriteLine(await Floats());
            // Many rounds, with pauses so tiered compilation promotes the methods to optimized code,
            // where a wrongly typed spill lets the JIT devirtualize and fold type tests.
            var seen = new SortedSet<string>();
            for (int i = 0; i < 1500; i++)
            {
                seen.Add(await Sealed(true) + " / " + await Sealed(false) + " / " + await Coalesce(null) + " / " + await Coalesce(new FancyWidget()));
                if (i % 100 == 0)
                    await Task.Delay(15);
            }
            foreach (var line in seen)
                Console.WriteLine(line);
        }
    }
}
