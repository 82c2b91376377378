using System.CommandLine;
using Async2.Rewriter;
using Async2.Rewriter.Verify;

namespace Async2.Cli;

/// <summary><c>async2 verify &lt;assembly.dll&gt;</c>: has the JIT compile every method of an assembly.</summary>
internal static class VerifyCommand
{
    public const string Details = """
        Details:
          Loads the assembly into a context of its own and has the JIT compile every method body, the
          paths no run reaches included. What it references is looked up as the host would for the app:
          among the --reference assemblies, then in its folder, then in the shared frameworks its
          <name>.runtimeconfig.json names (ASP.NET Core's, say), at the installed version the host would
          pick from the .NET installation async2 runs on. A library has no runtimeconfig.json: pass the
          frameworks it needs with --reference (-r <dotnet root>/shared/Microsoft.AspNetCore.App/<version>),
          or verify it in the folder of an app that uses it. Generic types and methods are compiled over
          object, or int where a parameter must be a value type; those whose constraints allow neither
          are listed as not compiled. The JIT names the method it refuses, not the IL offset. Use it on
          a rewritten assembly (or any other) before shipping it.

        Exit codes:
          0  every method compiled
          1  the JIT refused at least one method ('error ASYNC2201: ...' for each), the file is no assembly,
             or a framework its runtimeconfig.json names is not installed
          2  usage error
        """;

    public static Command Create()
    {
        var assembly = PathArgument.Create("assembly.dll", "the assembly to check (for example the output of async2 rewrite)");
        var references = ReferenceOption.Create("<assembly.dll>");
        var command = new Command("verify", "Has the JIT compile every method of an assembly and reports those it refuses.") { assembly, references };
        command.SetAction(parseResult => Run(parseResult.GetRequiredValue(assembly), ReferenceOption.Assemblies(parseResult.GetValue(references))));
        return command;
    }

    private static int Run(string path, IReadOnlyList<string> references)
    {
        if (AssemblyFile.WhyNotAnInput(path) is { } why)
            throw CliException.Failure($"cannot verify '{path}'.", why, "pass the path of a managed .dll, such as the output of async2 rewrite.");
        var report = AssemblyVerifier.Verify(path, references);
        foreach (var rejected in report.Rejected)
            Console.Error.WriteLine(rejected);
        if (report.Rejected.Any(rejected => rejected.Exception is nameof(FileNotFoundException) or nameof(FileLoadException)))
            Console.Error.WriteLine("  note: the methods refused with FileNotFoundException or FileLoadException need an assembly that was not found, "
                + "not beside the assembly, not among --reference, nor in a shared framework its runtimeconfig.json names; "
                + "pass that assembly or its folder with --reference, or verify the assembly in the folder of the app that uses it.");
        foreach (var skipped in report.NotInstantiated)
            Console.WriteLine($"  not compiled (no stand-in satisfies its generic constraints): {skipped}");
        Console.WriteLine($"{path}: {report.MethodsCompiled} method(s) compiled, {report.Rejected.Count} refused, {report.NotInstantiated.Count} generic definition(s) not compiled.");
        return report.Rejected.Count == 0 ? ExitCodes.Success : ExitCodes.Failure;
    }
}
