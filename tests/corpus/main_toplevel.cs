// top-level statements with await: locals of the top-level code live across awaits, an async local
// function, a helper class, a try/catch around an await at top level; exit code 0.
using System;
using System.Threading.Tasks;

int total = 0;
foreach (var suspend in new[] { false, true })
{
    Console.WriteLine($"-- suspend={suspend}");
    total += await Helper.Add(2, 3, suspend);
    Console.WriteLine($"total={total}");
    Console.WriteLine(await Describe(total, suspend));
    try
    {
        await Helper.Fail(suspend);
    }
    catch (Exception e)
    {
        Console.WriteLine(e.GetType().Name + ": " + e.Message);
    }
}
await Task.Yield();
Console.WriteLine("end");

static async Task<string> Describe(int value, bool suspend)
{
    if (suspend) await Task.Delay(1);
    return value % 2 == 0 ? "even" : "odd";
}

static class Helper
{
    public static async Task<int> Add(int a, int b, bool suspend)
    {
        if (suspend) await Task.Yield();
        return a + b;
    }

    public static async Task Fail(bool suspend)
    {
        if (suspend) await Task.Yield();
        throw new NotSupportedException("top-level failure");
    }
}
