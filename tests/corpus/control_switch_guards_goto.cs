// Switches whose dispatch itself suspends: `case` guards (`when await F(x)`) in switch statements
// and switch expressions over strings, tuples, types and relational patterns, so that the pattern
// variables and the value being matched are live across the guard's await and matching continues
// with the next case when the guard is false; a string switch with enough cases for a hash jump
// table whose sections await and jump to each other with goto case / goto default in a loop (a
// state machine driven by awaited values); switch sections holding `using` declarations and
// try/finally blocks that await, left by goto case (the section's finally blocks run before the
// jump) and by a goto out of a foreach inside a section; and a goto-based retry loop.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

sealed class Res : IDisposable
{
    readonly string _n;
    public Res(string n) { _n = n; Program.Log("open " + n); }
    public void Dispose() => Program.Log("close " + _n);
}

abstract record Shape;
sealed record Circle(double R) : Shape;
sealed record Rect(int W, int H) : Shape;
sealed record Tri(int A, int B, int C) : Shape;

static class Program
{
    static bool Suspend;
    static readonly List<string> log = new();
    public static void Log(string s) => log.Add(s);

    static async Task<bool> Check(string what, bool result)
    {
        log.Add(what);
        if (Suspend) await Task.Yield();
        return result;
    }

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<string> Classify(object o)
    {
        switch (o)
        {
            case int i when await Check("int>10?" + i, i > 10):
                return "big int " + i;
            case int i when await Check("int even?" + i, i % 2 == 0):
                return "even int " + (i + await Value(1000));
            case string s when s.Length > 3 && await Check("long string " + s, s.StartsWith('a')):
                return "a-string " + s;
            case string { Length: var n } s:
                return $"string {s} len {n + await Value(0)}";
            case Rect { W: var w, H: var h } when await Check($"square? {w}x{h}", w == h):
                return "square " + w;
            case Rect r:
                return "rect " + r.W * r.H;
            case Shape sh when await Check("shape " + sh.GetType().Name, sh is Circle { R: > 1 }):
                return "big circle";
            case null:
                return "null";
            default:
                return "other " + o;
        }
    }

    static async Task<string> Expression((int, string) pair) => pair switch
    {
        (0, _) => "zero",
        ( > 0 and < 10, var s) when await Check("small " + s, s.Length == 1) => "small single " + s,
        (var n, var s) when await Check("mid " + n, n < 100) => $"mid {n} {s}{await Value(n * 2)}",
        (var n, "x") => "x " + n,
        _ => "rest",
    };

    static async Task<string> Machine(string start)
    {
        string state = start;
        string trail = "";
        int steps = 0;
        while (steps++ < 12)
        {
            switch (state)
            {
                case "idle":
                    trail += "I";
                    state = await Value(steps) % 2 == 0 ? "load" : "parse";
                    break;
                case "load":
                    trail += "L" + await Value(steps);
                    goto case "parse";
                case "parse":
                    trail += "P";
                    if (await Value(steps) > 6) goto case "check";
                    state = "emit";
                    break;
                case "check":
                    trail += "C";
                    if (await Check("check " + steps, steps > 9)) goto default;
                    state = "idle";
                    break;
                case "emit":
                    trail += "E";
                    await Value(0);
                    state = "link";
                    break;
                case "link": trail += "K"; state = "idle"; break;
                case "alpha": trail += "a"; goto case "beta";
                case "beta": trail += "b"; goto case "gamma";
                case "gamma": trail += "g" + await Value(3); goto case "idle";
                case "delta": trail += "d"; break;
                default:
                    trail += "!";
                    return trail + " at " + steps;
            }
        }
        return trail + " ran out";
    }

    static async Task<string> Sections(int start)
    {
        int step = 0;
        switch (start)
        {
            case 0:
            {
                using var r = new Res("zero");
                step += await Value(1);
                if (step < 5) goto case 1;
                break;
            }
            case 1:
            {
                using var r = new Res("one" + step);
                try
                {
                    step += await Value(2);
                    if (step < 4) goto case 0;
                    if (step < 8) goto default;
                }
                finally { log.Add("fin one " + step); await Value(0); }
                break;
            }
            default:
            {
                using var r = new Res("dflt" + step);
                foreach (var x in new List<int> { 1, 2, 3 })
                {
                    using var inner = new Res("x" + x);
                    step += await Value(x);
                    if (step > 9) goto done;
                }
                break;
            }
        }
    done:
        return "step " + step;
    }

    static async Task<string> RetryWithGoto()
    {
        int attempt = 0;
        string s = "";
    retry:
        attempt++;
        try
        {
            s += "[try" + attempt;
            if (await Value(attempt) < 3)
                goto retry;
            s += " ok";
        }
        finally
        {
            s += "]";
        }
        return s;
    }

    static async Task Main()
    {
        var inputs = new object?[] { 42, 8, 7, "abcd", "bcde", "ab", new Rect(3, 3), new Rect(2, 5), new Circle(2), new Circle(0.5), new Tri(1, 1, 1), null, 'c' };
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var o in inputs)
            {
                log.Clear();
                Console.WriteLine($"Classify({o ?? "null"}) = {await Classify(o!)} [{string.Join("; ", log)}]");
            }
            foreach (var p in new[] { (0, "q"), (5, "z"), (5, "zz"), (50, "y"), (500, "x"), (500, "w") })
            {
                log.Clear();
                Console.WriteLine($"Expression{p} = {await Expression(p)} [{string.Join("; ", log)}]");
            }
            foreach (var start in new[] { "idle", "alpha", "delta", "unknown" })
            {
                log.Clear();
                Console.WriteLine($"Machine({start}) = {await Machine(start)} [{string.Join("; ", log)}]");
            }
            for (int i = 0; i < 3; i++)
            {
                log.Clear();
                Console.WriteLine($"Sections({i}) = {await Sections(i)} [{string.Join(", ", log)}]");
            }
            Console.WriteLine("RetryWithGoto = " + await RetryWithGoto());
        }
    }
}
