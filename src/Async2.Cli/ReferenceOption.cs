using System.CommandLine;
using Async2.Rewriter;

namespace Async2.Cli;

/// <summary>
/// <c>--reference</c>: assemblies the input refers to that are not beside it (a NuGet package's,
/// a framework's other than the shared one), which the rewrite may need to read: an attribute's
/// enum argument, a struct kept across an await. Async2.Build passes a project's references itself.
/// </summary>
internal static class ReferenceOption
{
    /// <param name="input">How the command's help names its input assembly.</param>
    public static Option<string[]> Create(string input) => new("--reference", "-r")
    {
        Description = $"an assembly {input} refers to, or a folder of them, when it is not beside {input} (repeatable)",
        HelpName = "path",
    };

    /// <summary>The .dll files the values name: a file as is (refused if it is no .NET assembly), a folder's .dll files.</summary>
    public static IReadOnlyList<string> Assemblies(IEnumerable<string>? values)
    {
        var assemblies = new List<string>();
        foreach (var value in values ?? [])
        {
            if (Directory.Exists(value))
                assemblies.AddRange(Directory.EnumerateFiles(value, "*.dll").Order(StringComparer.Ordinal));
            else if (File.Exists(value))
                assemblies.Add(AssemblyFile.Mvid(value) is not null ? value
                    : throw CliException.Failure($"--reference '{value}' is not a .NET assembly.", "the rewrite reads references' metadata, and this file has none.",
                        "pass a managed .dll (a reference assembly will do), or a folder: its other files are passed over."));
            else
                throw CliException.Failure($"--reference '{value}' does not exist.", "it names neither a file nor a folder.",
                    "pass the path of a referenced .dll, or of the folder that holds it.");
        }
        return assemblies.Select(Path.GetFullPath).ToList();
    }
}
