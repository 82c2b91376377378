using Async2.Rewriter;

namespace Async2.Cli;

/// <summary><c>async2 rewrite &lt;in.dll&gt; -o &lt;out.dll&gt;</c>.</summary>
internal static class RewriteCommand
{
    public static int Run(string[] args)
    {
        string? input = null, output = null;
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case var help when Usage.IsHelp(help):
                    Console.WriteLine(Usage.Rewrite);
                    return ExitCodes.Success;
                case "-o" or "--output":
                    if (i + 1 >= args.Length)
                        throw CliException.Usage("rewrite", $"'{args[i]}' needs a path.", "write -o <out.dll>");
                    output = args[++i];
                    break;
                case var option when option.StartsWith('-'):
                    throw CliException.Usage("rewrite", $"unknown option '{option}'.", "the only option is -o <out.dll>");
                default:
                    if (input is not null)
                        throw CliException.Usage("rewrite", $"one input assembly expected, got '{input}' and '{args[i]}'.", "rewrite one assembly at a time");
                    input = args[i];
                    break;
            }
        }
        if (input is null)
            throw CliException.Usage("rewrite", "no input assembly given.", "write async2 rewrite <in.dll> -o <out.dll>");
        if (output is null)
            throw CliException.Usage("rewrite", "no output path given.", "add -o <out.dll> (the input is never overwritten)");

        var report = AssemblyRewriter.Rewrite(new RewriteRequest(input, output));
        if (!report.HasRuntimeAsyncMethods)
        {
            Console.WriteLine(report.AlreadyRewritten
                ? $"{input}: already rewritten by Async2 (it references Async2.Runtime); nothing written."
                : $"{input}: no runtime-async methods (was it compiled with <Features>runtime-async=on</Features>?); nothing written.");
            return ExitCodes.Success;
        }
        PrintReport(report);
        return ExitCodes.Success;
    }

    /// <summary>One line per method, then the totals.</summary>
    internal static void PrintReport(RewriteReport report)
    {
        foreach (var method in report.Methods)
        {
            var what = method.Rewritten
                ? $"rewritten ({method.AwaitSites} await(s), {method.DirectCalls} direct async2 call(s))"
                : $"left classic: {method.Reason}";
            Console.WriteLine($"  {method.Method}: {what}");
        }
        int rewritten = report.Methods.Count(m => m.Rewritten);
        Console.WriteLine($"{report.OutputPath}: {rewritten} method(s) rewritten, {report.Methods.Count - rewritten} left classic.");
    }
}
