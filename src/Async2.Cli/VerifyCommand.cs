using System.CommandLine;
using Async2.Rewriter;
using Async2.Rewriter.Verify;

namespace Async2.Cli;

/// <summary><c>async2 verify &lt;assembly.dll&gt;</c>: has the JIT compile every method of an assembly.</summary>
internal static class VerifyCommand
{
    public const string Details = """
        Details:
          Loads the assembly into a context of its own (what it references is looked up in its folder
          first) and has the JIT compile every method body, the paths no run reaches included. Generic
          types and methods are compiled over object, or int where a parameter must be a value type;
          those whose constraints allow neither are listed as not compiled. The JIT names the method it
          refuses, not the IL offset. Use it on a rewritten assembly (or any other) before shipping it.

        Exit codes:
          0  every method compiled
          1  the JIT refused at least one method ('error ASYNC2201: ...' for each), or the file is no assembly
          2  usage error
        """;

    public static Command Create()
    {
        var assembly = PathArgument.Create("assembly.dll", "the assembly to check (for example the output of async2 rewrite)");
        var command = new Command("verify", "Has the JIT compile every method of an assembly and reports those it refuses.") { assembly };
        command.SetAction(parseResult => Run(parseResult.GetRequiredValue(assembly)));
        return command;
    }

    private static int Run(string path)
    {
        if (AssemblyFile.WhyNotAnInput(path) is { } why)
            throw CliException.Failure($"cannot verify '{path}'.", why, "pass the path of a managed .dll, such as the output of async2 rewrite.");
        var report = AssemblyVerifier.Verify(path);
        foreach (var rejected in report.Rejected)
            Console.Error.WriteLine(rejected);
        foreach (var skipped in report.NotInstantiated)
            Console.WriteLine($"  not compiled (no stand-in satisfies its generic constraints): {skipped}");
        Console.WriteLine($"{path}: {report.MethodsCompiled} method(s) compiled, {report.Rejected.Count} refused, {report.NotInstantiated.Count} generic definition(s) not compiled.");
        return report.Rejected.Count == 0 ? ExitCodes.Success : ExitCodes.Failure;
    }
}
