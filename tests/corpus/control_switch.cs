// switch statements on awaited values, awaits inside cases, goto case, pattern matching
// and switch expressions with awaits in the governing expression and in the arms.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<string> Text(string s)
    {
        if (Suspend) await Task.Yield();
        return s;
    }

    static async Task<object?> Boxed(object? o)
    {
        if (Suspend) await Task.Yield();
        return o;
    }

    static async Task<string> Statement(int n)
    {
        var log = "";
        switch (await Value(n))
        {
            case 0:
                log += "zero";
                break;
            case 1:
            case 2:
                log += "small:" + await Value(n * 10);
                break;
            case 3:
                log += "three->";
                goto case 1;
            case 4:
                log += "four->";
                goto default;
            default:
                log += "default:" + await Text(n.ToString());
                break;
        }
        return log;
    }

    static async Task<string> OnString(string key)
    {
        switch (await Text(key))
        {
            case "alpha": return "A" + await Value(1);
            case "beta": return "B" + await Value(2);
            case null: return "null";
            default:
                var len = await Value(key.Length);
                return "len" + len;
        }
    }

    static async Task<string> Patterns(object? o)
    {
        switch (await Boxed(o))
        {
            case int i when i > await Value(10):
                return "big int " + i;
            case int i:
                return "int " + (i + await Value(1));
            case string s when s.Length == 0:
                return "empty string";
            case string s:
                return "string " + await Text(s.ToUpperInvariant());
            case null:
                return "null";
            default:
                return "other " + o.GetType().Name;
        }
    }

    static async Task<string> Expression(int n) =>
        await Value(n) switch
        {
            0 => "zero",
            < 0 => "neg" + await Value(-n),
            > 0 and < 10 => await Text("digit ") + n,
            _ => n % 2 == 0 ? await Text("even") : "odd",
        };

    static async Task<int> ExpressionInArithmetic(int a, int b) =>
        1000 + (a switch
        {
            1 => await Value(b) * 2,
            2 => b - await Value(3),
            _ => await Value(a) + await Value(b),
        });

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            for (int n = 0; n <= 5; n++)
                Console.WriteLine($"Statement({n}) = {await Statement(n)}");
            foreach (var key in new[] { "alpha", "beta", "gamma", null })
                Console.WriteLine($"OnString({key ?? "null"}) = {await OnString(key!)}");
            foreach (var o in new object?[] { 42, 3, "", "abc", null, 2.5 })
                Console.WriteLine($"Patterns = {await Patterns(o)}");
            foreach (var n in new[] { 0, -7, 5, 12, 13 })
                Console.WriteLine($"Expression({n}) = {await Expression(n)}");
            Console.WriteLine($"ExpressionInArithmetic = {await ExpressionInArithmetic(1, 5)} {await ExpressionInArithmetic(2, 5)} {await ExpressionInArithmetic(7, 5)}");
        }
    }
}
