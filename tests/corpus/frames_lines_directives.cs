// Exception traces with file, line AND column (from StackTrace(e, true) frames that have a file)
// through code under #line directives: a method whose awaits switch documents (#line N "file"),
// #line hidden around an await and around a throw, #line default, the enhanced
// #line (l,c)-(l,c) form, and new StackFrame(0, true) read after a resume (line and column).
using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using System.Threading.Tasks;

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static readonly Regex Location = new(@" in (?:.*[/\\])?([^/\\]+):line (\d+)");

    static void Show(string title, Exception e)
    {
        Console.WriteLine($"[{title}] {e.GetType().Name}: {e.Message}");
        foreach (var raw in e.ToString().Split('\n').Skip(1))
        {
            var line = raw.TrimEnd('\r');
            Console.WriteLine(Location.Replace(line, " in $1:$2"));
        }
        var frames = new StackTrace(e, true).GetFrames()
            .Where(f => f.GetFileName() != null)
            .Select(f => $"{Path.GetFileName(f.GetFileName())}:{f.GetFileLineNumber()}:{f.GetFileColumnNumber()}");
        Console.WriteLine("  cols: " + string.Join(" | ", frames));
    }

    static async Task Run(string title, Func<Task> action)
    {
        try
        {
            await action();
            Console.WriteLine($"[{title}] no exception");
        }
        catch (Exception e)
        {
            Show(title, e);
        }
    }

    static string Here()
    {
        var f = new StackFrame(1, true);
        return $"{Path.GetFileName(f.GetFileName())}:{f.GetFileLineNumber()}:{f.GetFileColumnNumber()}";
    }

    static async Task<int> Thrower(int x)
    {
        await Pause();
        if (x > 0) throw new InvalidOperationException("thrower " + x);
        return x;
    }

    static async Task<int> SwitchesDocuments(int x)
    {
        int a = await Thrower(0);
#line 500 "generated/Other.g.cs"
        int b = await Thrower(0);
        Console.WriteLine("at " + Here());
        int c = await Thrower(x);
#line default
        return a + b + c;
    }

    static async Task<int> SwitchesBack(int x)
    {
#line 700 "generated/Third.g.cs"
        int a = await Thrower(0);
#line default
        Console.WriteLine("back at " + Here());
        int c = await Thrower(x);
        return a + c;
    }

    static async Task<int> HiddenAwait(int x)
    {
        int a = await Thrower(0);
#line hidden
        int b = await Thrower(x);
#line default
        return a + b;
    }

    static async Task<int> HiddenThrow(int x)
    {
        await Pause();
        Console.WriteLine("before hidden at " + Here());
#line hidden
        if (x > 0) throw new ArgumentException("hidden throw");
#line default
        return x;
    }

    static async Task<int> HiddenWithHandler(int x)
    {
        try
        {
#line hidden
            int b = await Thrower(x);
#line default
            return b;
        }
        catch (InvalidOperationException e) when (e.Message.Length > 0)
        {
            await Pause();
            throw;
        }
    }

    static async Task<int> Enhanced(int x)
    {
        await Pause();
#line (40, 5) - (40, 60) 12 "razor/Page.cshtml"
        int r = await Thrower(x) + await Thrower(0);
#line default
        return r;
    }

    static async Task<int> EnhancedHere(int x)
    {
        await Pause();
#line (80, 1) - (80, 90) 3 "razor/Page.cshtml"
        Console.WriteLine("enhanced at " + Here() + " " + await Thrower(0));
#line default
        await Pause();
        Console.WriteLine("default at " + Here());
        return x;
    }

    static async Task<int> Columns(int x)
    {
        await Pause(); var y = await Thrower(0); Console.WriteLine("cols at " + Here()); await Pause(); return y + await Thrower(x);
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"===== suspend={suspend}");
            await Run("switches documents", () => SwitchesDocuments(1));
            await Run("switches back", () => SwitchesBack(2));
            await Run("hidden await", () => HiddenAwait(3));
            await Run("hidden throw", () => HiddenThrow(4));
            await Run("hidden with handler", () => HiddenWithHandler(5));
            await Run("enhanced", () => Enhanced(6));
            await Run("enhanced here", () => EnhancedHere(7));
            await Run("columns", () => Columns(8));
        }
    }
}
