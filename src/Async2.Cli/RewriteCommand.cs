using System.CommandLine;
using Async2.Cli.Inspect;
using Async2.Rewriter;

namespace Async2.Cli;

/// <summary><c>async2 rewrite &lt;in.dll&gt; -o &lt;out.dll&gt;</c>.</summary>
internal static class RewriteCommand
{
    public const string Details = """
        Details:
          Every runtime-async method of <in.dll> becomes a continuation-passing state machine that the
          stock .NET 10 runtime loads. Written: <out.dll>, Async2.Runtime.dll beside it, the debug symbols
          where <in.dll> had them (a portable .pdb beside it, or embedded) and <out>.deps.json listing
          Async2.Runtime if <in>.deps.json exists. An assembly without runtime-async methods is reported
          and nothing is written. A strong-name signed <in.dll> is signed again with --key-file; without
          it <out.dll> keeps the public key (its identity) but not the signature, and a warning says so.

        Exit codes:
          0  rewritten, or nothing to rewrite
          1  the assembly cannot be rewritten: each problem is printed as 'error ASYNC2nnn: ...' and nothing is written
          2  usage error
        130  interrupted (Ctrl+C, SIGTERM): nothing is written
        """;

    public static Command Create()
    {
        var input = PathArgument.Create("in.dll", "the assembly to rewrite, compiled with <Features>runtime-async=on</Features>; never modified");
        var output = PathArgument.RefusingEmpty(new Option<string>("--output", "-o")
        {
            Description = "where to write the rewritten assembly (not <in.dll>); its .pdb, .deps.json and Async2.Runtime.dll go beside it",
            HelpName = "out.dll",
            Required = true,
        });
        var keyFile = PathArgument.RefusingEmpty(new Option<string?>("--key-file")
        {
            Description = "the strong-name key pair <in.dll> was signed with; <out.dll> is signed with it again",
            HelpName = "key.snk",
        });
        var references = ReferenceOption.Create("<in.dll>");
        var command = new Command("rewrite", "Rewrites one runtime-async assembly so that the stock runtime runs it.")
        {
            input,
            output,
            keyFile,
            references,
        };
        command.SetAction(parseResult => Run(parseResult.GetRequiredValue(input), parseResult.GetRequiredValue(output), parseResult.GetValue(keyFile),
            ReferenceOption.Assemblies(parseResult.GetValue(references))));
        return command;
    }

    private static int Run(string input, string output, string? keyFile, IReadOnlyList<string> references)
    {
        var report = AssemblyRewriter.Rewrite(new RewriteRequest(input, output) { StrongNameKeyFile = keyFile, ReferencePaths = references, Cancellation = Interruption.Token });
        if (!report.HasRuntimeAsyncMethods)
        {
            Console.WriteLine(report.AlreadyRewritten
                ? $"{input}: already rewritten by Async2 (it references Async2.Runtime); nothing written."
                : $"{input}: no runtime-async methods ({WhyNoRuntimeAsync(input)}); nothing written.");
            return ExitCodes.Success;
        }
        PrintReport(report);
        if (report.SignatureDropped)
            Console.Error.WriteLine($"warning {DiagnosticCodes.KeyNotUsable}: {input} is strong-name signed; {report.OutputPath} keeps its public key but is not signed, since the rewrite changed the signed bytes. "
                + "Pass --key-file with the .snk it was signed with to sign it again.");
        if (report.InstrumentedForCoverage)
            Console.Error.WriteLine($"warning {DiagnosticCodes.CoverageInstrumented}: {CoverageInstrumentation.Warning(input)}");
        if (Path.GetDirectoryName(report.OutputPath) == Path.GetDirectoryName(report.InputPath))
            Console.Error.WriteLine($"warning {DiagnosticCodes.OutputBesideInput}: {report.OutputPath} is in the folder of its input, {Path.GetFileName(report.InputPath)}, and keeps its assembly name, "
                + "so an app run from that folder loads the input, not the output (the host finds assemblies by name). Write the output into a folder of its own to run it.");
        return ExitCodes.Success;
    }

    /// <summary>Why an assembly that is not Async2's has no runtime-async methods, as far as its metadata tells.</summary>
    internal static string WhyNoRuntimeAsync(string assembly) =>
        AssemblyFile.FrameworkWithoutRuntimeAsync(assembly) is { } framework
            ? $"it targets {framework}, and the compiler emits runtime-async code only for .NET 10 and later: target net10.0"
            : "was it compiled with <Features>runtime-async=on</Features>?";

    /// <summary>
    /// One line per async method, then the totals. Left classic: the methods the compiler built as
    /// classic state machines (async iterators and the like, as <c>async2 inspect</c> lists them).
    /// </summary>
    internal static void PrintReport(RewriteReport report)
    {
        foreach (var method in report.Methods)
        {
            var what = method.Rewritten
                ? $"rewritten ({method.AwaitSites} await(s), {method.DirectCalls} direct async2 call(s))"
                : $"left classic: {method.Reason}";
            Console.WriteLine($"  {method.Method}: {what}");
        }
        foreach (var method in report.ClassicMethods)
            Console.WriteLine($"  {method}: left classic: {InspectionReport.WhyClassic(olderFramework: null)}");
        int rewritten = report.Methods.Count(m => m.Rewritten);
        int classic = report.Methods.Count - rewritten + report.ClassicMethods.Count;
        Console.WriteLine($"{report.OutputPath}: {rewritten} method(s) rewritten, {classic} left classic.");
    }
}
