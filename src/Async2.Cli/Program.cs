using System.CommandLine;
using System.CommandLine.Help;
using Async2.Rewriter;

namespace Async2.Cli;

/// <summary>
/// The <c>async2</c> command. System.CommandLine parses the command line and writes the help;
/// this class turns every failure into one readable message on stderr and an exit code (no stack
/// traces for problems the user can fix).
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        ClosedConsole.Guard();
        var root = CreateRootCommand();
        var parseResult = root.Parse(PathArgument.EndingOptionsAtDoubleDash(RunCommand.PassAppArgumentsThrough(args)));
        if (parseResult.Errors.Count > 0)
            return ReportUsageErrors(parseResult);
        Interruption.Listen();
        try
        {
            return parseResult.Invoke(new InvocationConfiguration
            {
                // Exceptions reach the handlers below rather than the library's, which prints stack traces.
                EnableDefaultExceptionHandler = false,
                // run passes Ctrl+C, SIGTERM and SIGHUP on to the app itself (ChildProcess.SignalRelay).
                ProcessTerminationTimeout = null,
            });
        }
        catch (CliException e)
        {
            Console.Error.WriteLine(e.Message);
            return ExitCodes.Failure;
        }
        catch (RewriteException e)
        {
            foreach (var diagnostic in e.Diagnostics)
                Console.Error.WriteLine(diagnostic);
            Console.Error.WriteLine($"async2: {e.Diagnostics.Count} problem(s){WhatDidNotHappen(parseResult.CommandResult.Command)}.");
            return ExitCodes.Failure;
        }
        catch (Exception e) when (Interruption.Stopped(e))
        {
            Console.Error.WriteLine($"async2: interrupted{WhatDidNotHappen(parseResult.CommandResult.Command)}.");
            return ExitCodes.Interrupted;
        }
    }

    /// <summary>What a rewrite problem stopped, said after the count: rewrite wrote nothing, run did not start the app; inspect has nothing to add.</summary>
    private static string WhatDidNotHappen(Command command) => command.Name switch
    {
        "rewrite" => "; nothing was written",
        "run" => "; the app was not started",
        _ => "",
    };

    private static RootCommand CreateRootCommand()
    {
        var rewrite = RewriteCommand.Create();
        var run = RunCommand.Create();
        var demo = DemoCommand.Create();
        var verify = VerifyCommand.Create();
        var inspect = InspectCommand.Create();
        var bench = BenchCommand.Create();
        var runtime = RuntimeCommand.Create();
        var root = new RootCommand("Runs runtime-async .NET assemblies on the stock .NET 10 runtime.") { rewrite, run, verify, inspect, demo, bench, runtime };
        var help = root.Options.OfType<HelpOption>().Single();
        help.Action = new HelpWithDetails((HelpAction)help.Action!, new Dictionary<Command, string>
        {
            [root] = """
                Exit codes:
                  0  success
                  1  failure: the message says what, where, why and what to do
                  2  usage error: the command line is wrong
                130  interrupted (Ctrl+C, SIGTERM): a rewrite stopped leaves nothing behind
                  run returns the app's own exit code.
                """,
            [rewrite] = RewriteCommand.Details,
            [run] = RunCommand.Details,
            [verify] = VerifyCommand.Details,
            [inspect] = InspectCommand.Details,
            [demo] = DemoCommand.Details,
            [bench] = BenchCommand.Details,
            [runtime] = RuntimeCommand.Details,
        });
        return root;
    }

    /// <summary>
    /// Prints the parser's errors in the shape of <see cref="CliException"/> messages and returns
    /// the usage exit code (System.CommandLine's own error action returns 1, which here means
    /// "the work failed").
    /// </summary>
    private static int ReportUsageErrors(ParseResult parseResult)
    {
        var command = parseResult.CommandResult.Command;
        if (command is RootCommand root && parseResult.UnmatchedTokens is [var unknown, ..] && !unknown.StartsWith('-'))
        {
            // The parser also says "Required command was not provided", which reads as if none was typed.
            var commands = string.Join(", ", root.Subcommands.Select(subcommand => subcommand.Name));
            Console.Error.WriteLine($"error: '{unknown}' is not an async2 command. The commands are: {commands}.");
            Console.Error.WriteLine("  fix: see 'async2 --help' for what each does");
            return ExitCodes.Usage;
        }
        foreach (var error in parseResult.Errors)
            Console.Error.WriteLine($"error: {error.Message}");
        var help = command is RootCommand ? "async2 --help" : $"async2 {command.Name} --help";
        Console.Error.WriteLine($"  fix: see '{help}' for the arguments and options");
        return ExitCodes.Usage;
    }
}
