// Exceptions crossing overrides of mixed models: a rewritten override throwing before and after
// suspending, a classic override ([RuntimeAsyncMethodGeneration(false)]) catching from its rewritten
// base with a filter and rethrowing a wrapped exception, finally blocks in both models, and a caller
// through the base type seeing the most derived behaviour and exception each time.
using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

class Parser
{
    public virtual async Task<int> Parse(string s)
    {
        if (s.Length == 0) throw new ArgumentException("empty input");
        await Program.Pause();
        if (!int.TryParse(s, out var v)) throw new FormatException($"'{s}' is not a number");
        return v;
    }
}

class ClassicChecked : Parser
{
    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<int> Parse(string s)
    {
        try
        {
            int v = await base.Parse(s);
            if (v < 0) throw new OverflowException($"{v} is negative");
            return v;
        }
        catch (FormatException e) when (s.StartsWith("x"))
        {
            await Program.Pause();
            throw new InvalidOperationException("hex is not supported", e);
        }
        finally
        {
            Console.WriteLine($"  ClassicChecked finally '{s}'");
        }
    }
}

sealed class RewrittenDefaulting : ClassicChecked
{
    public override async Task<int> Parse(string s)
    {
        try
        {
            return await base.Parse(s);
        }
        catch (OverflowException e)
        {
            Console.WriteLine($"  defaulting after {e.Message}");
            await Program.Pause();
            return 0;
        }
        finally
        {
            await Program.Pause();
            Console.WriteLine($"  RewrittenDefaulting finally '{s}'");
        }
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Attempt(Parser p, string s)
    {
        try
        {
            return $"{await p.Parse(s)}";
        }
        catch (Exception e)
        {
            return $"{e.GetType().Name}: {e.Message}" + (e.InnerException is { } inner ? $" <- {inner.GetType().Name}: {inner.Message}" : "");
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var p in new Parser[] { new Parser(), new ClassicChecked(), new RewrittenDefaulting() })
                foreach (var input in new[] { "12", "", "abc", "x1f", "-5" })
                    Console.WriteLine($"{p.GetType().Name}('{input}') = {await Attempt(p, input)}");
        }
    }
}
