// Struct values of another assembly stay on the evaluation stack across awaits: Roslyn keeps a
// temporary such as `new Money(5)` on the stack while the next argument awaits, so the rewrite
// must spill it into a local and a continuation field typed as the value type it is.
using System;
using System.Threading.Tasks;
using Values;

static class Program
{
    static bool suspend;

    static async Task<int> Pause(int value)
    {
        if (suspend)
            await Task.Yield();
        return value;
    }

    static async Task<long> Cents(long value)
    {
        if (suspend)
            await Task.Delay(1);
        return value;
    }

    // A local read once after the await: the optimizing compiler keeps the struct on the stack
    // instead. Point and Reading appear in no signature of this assembly, only as TypeRef tokens.
    static async Task<int> PointAcross(int x)
    {
        var point = new Point(x, x + 1);
        await Pause(0);
        return point.Y;
    }

    static async Task<string> HolderAcross(string text)
    {
        var holder = new Holder<string>(text);
        await Pause(0);
        return holder.Value;
    }

    static async Task<string> ReadingAcross(double degrees)
    {
        var reading = new Reading(degrees, "roof");
        await Cents(0);
        return reading.Place;
    }

    static async Task<int> GenericHolderAcross<T>(T value, Func<T, int> measure)
    {
        var holder = new Holder<T>(value);
        await Pause(0);
        return measure(holder.Value);
    }

    static string Show(Money money, int extra) => $"{money} + {extra}";

    static string ShowPair(Pair<int, string> pair, int extra) => $"{pair} + {extra}";

    static string ShowBoxed(object boxed, Currency currency) => $"{boxed} in {currency}";

    static async Task<string> Run()
    {
        var lines = new System.Collections.Generic.List<string>();
        lines.Add(Show(new Money(1234), await Pause(1)));
        lines.Add(ShowPair(new Pair<int, string>(7, "seven"), await Pause(2)));
        lines.Add(new Money(100).Add(new Money(await Cents(250))).ToString());
        lines.Add(ShowBoxed(new Money(5), (Currency)(await Pause(1))));
        object boxed = new Money(999);
        lines.Add(Show((Money)boxed, await Pause(3)));
        var counter = new Counter();
        counter.Add("a");
        lines.Add($"{counter.Count} {await Pause(4)} {counter.Last}");
        lines.Add($"point {await PointAcross(41)}");
        lines.Add($"holder {await HolderAcross("kept")}");
        lines.Add($"reading {await ReadingAcross(21.5)}");
        lines.Add($"generic holder {await GenericHolderAcross(new Money(34), m => (int)m.Cents)}");
        return string.Join(Environment.NewLine, lines);
    }

    static async Task Main()
    {
        foreach (var mode in new[] { false, true })
        {
            suspend = mode;
            Console.WriteLine($"-- suspend={mode}");
            Console.WriteLine(await Run());
        }
    }
}
