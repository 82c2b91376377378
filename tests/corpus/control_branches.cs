// if/else chains with awaits in conditions and branches, short-circuit && and || around awaits,
// awaits in only one branch, nested branches.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static string trace = "";

    static async Task<bool> Flag(string name, bool value)
    {
        trace += name;
        if (Suspend) await Task.Yield();
        return value;
    }

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<string> Classify(int n)
    {
        if (await Value(n) < 0)
            return "negative";
        else if (n == 0)
            return "zero";
        else if (await Value(n % 2) == 0)
        {
            if (n > 100) return "big even";
            return "even";
        }
        else
        {
            var s = "odd";
            if (n > await Value(100)) s = "big " + s;
            return s;
        }
    }

    static async Task<string> ShortCircuit(bool a, bool b, bool c)
    {
        trace = "";
        bool and = await Flag("A", a) && await Flag("B", b);
        bool or = await Flag("C", c) || await Flag("D", !c);
        bool mixed = (a || await Flag("E", b)) && (!b || await Flag("F", c));
        return $"and={and} or={or} mixed={mixed} trace={trace}";
    }

    static async Task<int> OneSidedAwait(bool take)
    {
        int x = 10;
        if (take)
            x += await Value(5);
        else
            x -= 5;
        if (!take) x *= await Value(3);
        return x;
    }

    static async Task<string> Nested(int a, int b)
    {
        if (a > 0)
        {
            if (await Value(b) > 0)
                return a > b ? "a>b>0" : "b>=a>0";
            if (b == 0) return "a>0,b=0";
        }
        else if (await Flag("", b < 0))
        {
            return "a<=0,b<0";
        }
        return "other";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var n in new[] { -5, 0, 4, 7, 200, 201 })
                Console.WriteLine($"Classify({n}) = {await Classify(n)}");
            foreach (var (a, b, c) in new[] { (true, true, true), (true, false, false), (false, true, true), (false, false, false) })
                Console.WriteLine($"ShortCircuit({a},{b},{c}) = {await ShortCircuit(a, b, c)}");
            Console.WriteLine($"OneSidedAwait(true) = {await OneSidedAwait(true)}");
            Console.WriteLine($"OneSidedAwait(false) = {await OneSidedAwait(false)}");
            foreach (var (a, b) in new[] { (3, 2), (1, 2), (1, 0), (1, -1), (0, -1), (0, 1) })
                Console.WriteLine($"Nested({a},{b}) = {await Nested(a, b)}");
        }
    }
}
