using System.CommandLine;
using System.CommandLine.Help;
using System.CommandLine.Invocation;

namespace Async2.Cli;

/// <summary>
/// System.CommandLine's help followed by the command's details (what it does in full, its exit
/// codes). They cannot be its description: the root's command list prints each command's
/// description in full, so that stays one line.
/// </summary>
internal sealed class HelpWithDetails(HelpAction standardHelp, IReadOnlyDictionary<Command, string> details)
    : SynchronousCommandLineAction
{
    /// <summary>As the standard help: <c>async2 rewrite -h</c> shows help, not "no input given".</summary>
    public override bool ClearsParseErrors => true;

    public override int Invoke(ParseResult parseResult)
    {
        var exitCode = standardHelp.Invoke(parseResult);
        if (details.TryGetValue(parseResult.CommandResult.Command, out var text))
            parseResult.InvocationConfiguration.Output.WriteLine(text + Environment.NewLine);
        return exitCode;
    }
}
