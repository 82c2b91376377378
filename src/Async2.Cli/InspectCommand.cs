using System.CommandLine;
using Async2.Cli.Inspect;
using Async2.Rewriter.Emit;

namespace Async2.Cli;

/// <summary><c>async2 inspect &lt;assembly.dll&gt; [--json] [--html report.html]</c>: what the rewriter makes of each async method.</summary>
internal static class InspectCommand
{
    public const string Details = """
        Details:
          For a runtime-async assembly: each async method, rewritten or not and why; each await with the
          kind the rewriter chose (direct, virtual-entry, interface-entry, task-bridge, awaiter, stack-guard)
          and, for the Task path, why; per suspension point the locals and arguments kept, with their types;
          the continuation's estimated size; whether the method has a stack guard or a context scope.
          The rewrite is done in a scratch folder; the input is only read. Methods compiled as classic
          state machines are listed as such. Text lines for awaits start with '  await ' (grep-able).

        Exit codes:
          0  inspected
          1  the file is no assembly, or the rewriter refused it (the diagnostics say why)
          2  usage error
        """;

    public static Command Create()
    {
        var assembly = PathArgument.Create("assembly.dll", "the assembly to inspect (runtime-async input; a rewritten or classic one is described from its metadata)");
        var json = new Option<bool>("--json") { Description = "print JSON instead of text" };
        var html = PathArgument.RefusingEmpty(new Option<string?>("--html") { Description = "also write a self-contained HTML report to this file", HelpName = "report.html" });
        var references = ReferenceOption.Create("<assembly.dll>");
        var command = new Command("inspect", "Shows what the rewriter makes of each async method and await of an assembly.") { assembly, json, html, references };
        command.SetAction(parseResult => Run(parseResult.GetRequiredValue(assembly), parseResult.GetValue(json), parseResult.GetValue(html),
            ReferenceOption.Assemblies(parseResult.GetValue(references))));
        return command;
    }

    private static int Run(string path, bool json, string? html, IReadOnlyList<string> references)
    {
        if (Async2.Rewriter.AssemblyFile.WhyNotAnInput(path) is { } why)
            throw CliException.Failure($"cannot inspect '{path}'.", why, "pass the path of a managed .dll compiled with runtime-async=on.");
        if (html is not null && WhyNotAReportPath(Path.GetFullPath(path), html) is { } whyNotThere)
            throw CliException.Failure($"cannot write the HTML report to '{html}'.", whyNotThere, "name another file for --html (a new one, or an earlier report).");
        var report = InspectionReport.Of(Path.GetFullPath(path), references);
        Console.Write(json ? ReportWriters.Json(report) + Environment.NewLine : ReportWriters.Text(report));
        if (html is not null)
        {
            var destination = Path.GetFullPath(html);
            var scratch = destination + $".{Guid.NewGuid():N}.tmp";
            try
            {
                File.WriteAllText(scratch, ReportWriters.Html(report));
                File.Move(scratch, destination, overwrite: true);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                if (File.Exists(scratch))
                    File.Delete(scratch);
                throw CliException.Failure($"cannot write the HTML report to '{destination}'.", e.Message,
                    "name a file in a folder that exists and that you can write to (the report on stdout is complete).");
            }
            Console.Error.WriteLine($"async2: report written to {destination}");
        }
        return ExitCodes.Success;
    }

    /// <summary>
    /// Why the report may not go to <paramref name="html"/>: it is a device, one of the inspected
    /// assembly's own files, or another file that is not an HTML page (a slip such as
    /// <c>--html Program.cs</c> would replace a source file).
    /// </summary>
    private static string? WhyNotAReportPath(string input, string html) =>
        OutputPath.IsDevice(html) ? OutputPath.DeviceReason
        : OutputPath.InputFileAt(input, html) is { } inputFile
            ? (inputFile == "assembly" ? "it is the inspected assembly itself" : $"it is the inspected assembly's {inputFile}") + ", which inspect only reads."
        : File.Exists(html) && !IsHtmlPage(html)
            ? "the file exists and is not an HTML page, and inspect replaces only an earlier report (or an empty file)."
        : null;

    private static bool IsHtmlPage(string path)
    {
        using var reader = new StreamReader(path);
        var buffer = new char[512];
        var start = new string(buffer, 0, reader.ReadBlock(buffer)).TrimStart();
        return start.Length == 0 || start.StartsWith("<!DOCTYPE html", StringComparison.OrdinalIgnoreCase) || start.StartsWith("<html", StringComparison.OrdinalIgnoreCase);
    }
}
