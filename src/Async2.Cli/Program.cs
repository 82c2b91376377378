using Async2.Rewriter;

namespace Async2.Cli;

/// <summary>
/// The <c>async2</c> command: parses the first argument into a command and turns every failure
/// into one readable message and an exit code (no stack traces for problems the user can fix).
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        try
        {
            return Dispatch(args);
        }
        catch (CliException e)
        {
            Console.Error.WriteLine(e.Message);
            return e.ExitCode;
        }
        catch (RewriteException e)
        {
            foreach (var diagnostic in e.Diagnostics)
                Console.Error.WriteLine(diagnostic);
            Console.Error.WriteLine($"async2: {e.Diagnostics.Count} problem(s); nothing was written.");
            return ExitCodes.Failure;
        }
    }

    private static int Dispatch(string[] args)
    {
        if (args.Length == 0 || Usage.IsHelp(args[0]))
        {
            Console.WriteLine(Usage.Root);
            return args.Length == 0 ? ExitCodes.Usage : ExitCodes.Success;
        }
        var rest = args[1..];
        switch (args[0])
        {
            case "--version":
                Console.WriteLine(Usage.Version);
                return ExitCodes.Success;
            case "rewrite":
                return RewriteCommand.Run(rest);
            case "run":
                return RunCommand.Run(rest);
            case "demo":
                return DemoCommand.Run(rest);
            case "bench": return BenchCommand.Run(rest);
            default:
                throw CliException.Usage(null, $"'{args[0]}' is not an async2 command.", "use rewrite, run or demo");
        }
    }
}
