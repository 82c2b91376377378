// String interpolation with awaits in the holes. A string target with awaits cannot use the ref
// struct DefaultInterpolatedStringHandler, so Roslyn spills the holes and calls string.Format or
// string.Concat (over an array past four parts); alignment and format specifiers ride along. Also
// FormattableString and IFormattable targets (Format, arguments, ToString with a provider),
// nested and raw interpolations, and custom [InterpolatedStringHandler] types (a class and a
// mutable struct) that live across awaits: a handler taking the receiver and an awaited argument
// through [InterpolatedStringHandlerArgument], an out bool shouldAppend that skips every hole
// (awaits included), and bool-returning Append methods that stop evaluating the later holes.
// Finally a callee that sets CultureInfo.CurrentCulture (a comma decimal separator) and formats
// after an await, and the caller, which must see its own culture again once the callee returns.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text;
using System.Threading.Tasks;

sealed class Logger
{
    public int MinLevel;
    public readonly List<string> Lines = new();
    public void Write(int level, [InterpolatedStringHandlerArgument("", "level")] LogHandler handler)
    {
        if (handler.Enabled) Lines.Add($"L{level}: {handler.Text}");
        else Lines.Add($"L{level}: (skipped)");
    }
    public void Limited(int budget, [InterpolatedStringHandlerArgument("budget")] BudgetHandler handler) =>
        Lines.Add($"budget {budget}: {handler.Result()} ({handler.Parts} parts)");
}

[InterpolatedStringHandler]
sealed class LogHandler
{
    private readonly StringBuilder sb = new();
    public readonly bool Enabled;
    public LogHandler(int literalLength, int formattedCount, Logger logger, int level, out bool shouldAppend)
    {
        Enabled = shouldAppend = level >= logger.MinLevel;
        if (Enabled) sb.Append($"[{literalLength}/{formattedCount}]");
    }
    public void AppendLiteral(string s) => sb.Append(s);
    public void AppendFormatted<T>(T value) => sb.Append('<').Append(typeof(T).Name).Append(':').Append(value).Append('>');
    public void AppendFormatted<T>(T value, string? format) where T : IFormattable =>
        sb.Append('<').Append(value.ToString(format, CultureInfo.InvariantCulture)).Append('>');
    public void AppendFormatted<T>(T value, int alignment, string? format = null) =>
        sb.Append('<').Append(string.Format(CultureInfo.InvariantCulture, "{0," + alignment + (format is null ? "" : ":" + format) + "}", value)).Append('>');
    public string Text => sb.ToString();
}

// A mutable struct handler: Roslyn keeps it in a local and calls its Append methods by reference,
// so the copy that lives across an await must keep every mutation.
[InterpolatedStringHandler]
struct BudgetHandler
{
    private string text;
    private int budget;
    public int Parts;
    public BudgetHandler(int literalLength, int formattedCount, int budget) { text = ""; this.budget = budget; Parts = 0; }
    public bool AppendLiteral(string s) { text += s; Parts++; return --budget > 0; }
    public bool AppendFormatted(int value) { text += value.ToString(CultureInfo.InvariantCulture); Parts++; return --budget > 0; }
    public bool AppendFormatted(string? value) { text += value ?? "null"; Parts++; return --budget > 0; }
    public readonly string Result() => text;
}

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_evaluated = new();

    static async Task<T> Val<T>(T value, string tag)
    {
        s_evaluated.Add(tag);
        if (s_suspend) await Task.Yield();
        return value;
    }

    static async Task<string> StringTargets()
    {
        double d = 3.14159;
        string simple = $"[{await Val(42, "a"),6}|{await Val("left", "b"),-7}|{await Val(d, "c"):F2}|{await Val(255, "d"),5:X4}]";
        string many = $"{await Val("p", "e")}{await Val("q", "f")}{await Val("r", "g")}{await Val("s", "h")}{await Val("t", "i")}{d:F1}";
        string nested = $"outer({$"inner({await Val(7, "j"):D3})"}, {await Val<int?>(null, "k")}|{await Val<object?>(null, "l")})";
        int n = 5;
        string raw = $$"""{"n": {{n + await Val(1, "m")}}, "s": "{{await Val("x", "n"),3}}"}""";
        string cond = $"{(await Val(true, "o") ? await Val("yes", "p") : await Val("no", "q"))}-{await Val(DateTime.UnixEpoch, "r"):yyyy-MM-dd}";
        return $"{simple}\n  {many}\n  {nested}\n  {raw}\n  {cond}";
    }

    static async Task<string> FormattableTargets()
    {
        FormattableString fs = $"{await Val(1234.5m, "a"):N1} and {await Val("two", "b"),5} and {await Val(3L, "c")}";
        var parts = new List<string>();
        for (int i = 0; i < fs.ArgumentCount; i++) parts.Add($"{fs.GetArgument(i)}:{fs.GetArgument(i)?.GetType().Name}");
        IFormattable f = $"{await Val(0.5, "d"):P0}|{await Val(-1, "e"):+0;-0}";
        string inv = FormattableString.Invariant($"{await Val(1.5, "f")}/{await Val(2.25f, "g")}");
        return $"format=\"{fs.Format}\" args=[{string.Join(", ", parts)}] text={fs.ToString(CultureInfo.InvariantCulture)}\n  iformattable={f.ToString(null, CultureInfo.InvariantCulture)} invariant={inv}";
    }

    static async Task<string> CustomHandlers()
    {
        var log = new Logger { MinLevel = 2 };
        s_evaluated.Clear();
        log.Write(await Val(3, "level3"), $"x={await Val(10, "h1")} y={await Val(2.5, "h2"):F3} z={await Val("s", "h3"),4}!");
        log.Write(await Val(1, "level1"), $"never {await Val(99, "skipped1")} {await Val("no", "skipped2")}");
        log.MinLevel = 0;
        int local = 7;
        log.Write(0, $"{local} then {await Val(local * 2, "h4")} then {local += await Val(1, "h5")} and {local}");
        string evaluated1 = string.Join(",", s_evaluated);
        s_evaluated.Clear();
        log.Limited(3, $"a{await Val(1, "b1")}b{await Val(2, "b2")}c{await Val(3, "b3")}");
        log.Limited(10, $"a{await Val(1, "b4")}b{await Val("two", "b5")}c{await Val<string?>(null, "b6")}d");
        log.Limited(1, $"{await Val(5, "b7")}{await Val(6, "b8")}");
        string evaluated2 = string.Join(",", s_evaluated);
        return string.Join("\n  ", log.Lines) + $"\n  evaluated: {evaluated1}\n  evaluated: {evaluated2}";
    }

    static async Task<string> CultureCallee()
    {
        var comma = (CultureInfo)CultureInfo.InvariantCulture.Clone();
        comma.NumberFormat.NumberDecimalSeparator = ",";
        CultureInfo.CurrentCulture = comma;
        string before = $"{1.5}";
        string after = $"{await Val(2.5, "cul")}|{3.5:F2}";
        return $"{before} {after} {string.Format("{0}", 4.5)}";
    }

    static async Task Main()
    {
        CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            s_evaluated.Clear();
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine($"  {await StringTargets()}");
            Console.WriteLine($"  order: {string.Join(",", s_evaluated)}");
            s_evaluated.Clear();
            Console.WriteLine($"  {await FormattableTargets()}");
            Console.WriteLine($"  order: {string.Join(",", s_evaluated)}");
            Console.WriteLine($"  {await CustomHandlers()}");
            Console.WriteLine($"  culture callee: {await CultureCallee()}; caller after: {1.5} {CultureInfo.CurrentCulture.NumberFormat.NumberDecimalSeparator}");
        }
    }
}
