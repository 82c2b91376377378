// base.M() calls, which are non-virtual calls to a virtual method: chains of base calls three deep,
// base calls inside try/catch/finally and loops, an override that calls base twice, base calls to a
// method the intermediate class does not override, and exceptions thrown in a base implementation
// caught in the override (before and after suspension).
using System;
using System.Text;
using System.Threading.Tasks;

class Level0
{
    public virtual async Task<string> Describe(int depth)
    {
        await Program.Pause();
        return $"L0({depth})";
    }

    public virtual async Task<int> Risky(int x)
    {
        if (x < 0) throw new ArgumentOutOfRangeException(nameof(x), "negative before suspending");
        await Program.Pause();
        if (x == 0) throw new InvalidOperationException("zero after suspending");
        return x * 3;
    }

    public virtual async Task Accumulate(StringBuilder sb, int times)
    {
        for (int i = 0; i < times; i++)
        {
            await Program.Pause();
            sb.Append('0');
        }
    }
}

class Level1 : Level0
{
    public override async Task<string> Describe(int depth)
    {
        var a = await base.Describe(depth + 1);
        var b = await base.Describe(depth + 2); // base twice
        return $"L1[{a},{b}]";
    }

    public override async Task<int> Risky(int x)
    {
        try
        {
            return await base.Risky(x) + 1;
        }
        catch (InvalidOperationException e)
        {
            Console.WriteLine($"  L1 caught {e.GetType().Name}: {e.Message}");
            return -1;
        }
        finally
        {
            Console.WriteLine($"  L1 finally x={x}");
        }
    }
}

class Level2 : Level1
{
    // Level1 does not override Accumulate: base.Accumulate reaches Level0's.
    public override async Task Accumulate(StringBuilder sb, int times)
    {
        sb.Append('<');
        await base.Accumulate(sb, times);
        sb.Append('>');
        for (int i = 0; i < times; i++)
            await base.Accumulate(sb, 1);
    }

    public override async Task<string> Describe(int depth)
    {
        await Program.Pause();
        return "L2{" + await base.Describe(depth * 10) + "}";
    }

    public override async Task<int> Risky(int x)
    {
        try
        {
            return await base.Risky(x) * 2;
        }
        catch (ArgumentOutOfRangeException e)
        {
            await Program.Pause();
            Console.WriteLine($"  L2 caught {e.GetType().Name}");
            return -2;
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

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Level0 top = new Level2();
            Console.WriteLine(await top.Describe(1));
            Console.WriteLine(await new Level1().Describe(1));
            foreach (var x in new[] { 5, 0, -1 })
                Console.WriteLine($"Risky({x}) = {await top.Risky(x)}");
            try
            {
                await new Level0().Risky(0);
            }
            catch (InvalidOperationException e)
            {
                Console.WriteLine($"Level0 threw {e.Message}");
            }
            var sb = new StringBuilder();
            await top.Accumulate(sb, 3);
            Console.WriteLine(sb);
        }
    }
}
