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

    // Neither type is named here (that would be ambiguous): each comes from its library's factory.
    static async Task<string> Run(int n)
    {
        string result = "";
        var narrow = NarrowThings.Make(n);
        result += await Value(1);
        result += narrow.ToString();
        var wide = WideThings.Make(n + 1);
        result += await Value(2);
        result += wide.ToString();
        return result;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}: {await Run(5)} {await Run(1 << 20)}");
        }
    }
}
