using Mono.Cecil;

namespace Async2.Rewriter.Emit;

/// <summary>
/// How the rewrite finds the assemblies its input refers to: among a build's reference paths (or
/// <c>--reference</c>) first, by simple name, then in the input's folder, then in the shared
/// frameworks (Microsoft.NETCore.App, then the others installed beside it, such as ASP.NET Core's,
/// whose enums an app's attributes name: MVC's <c>[ResponseCache(Location = ...)]</c>).
/// <c>async2 inspect</c> reads the input and its rewrite with the same one, so both pick the same
/// file when several are around.
/// </summary>
public sealed class ReferenceResolver : DefaultAssemblyResolver
{
    private readonly Dictionary<string, string> _pathsByName;

    public ReferenceResolver(string inputPath, IReadOnlyList<string> referencePaths)
    {
        _pathsByName = referencePaths
            .GroupBy(path => Path.GetFileNameWithoutExtension(path), StringComparer.OrdinalIgnoreCase)
            .ToDictionary(group => group.Key, group => group.First(), StringComparer.OrdinalIgnoreCase);
        AddSearchDirectory(Path.GetDirectoryName(Path.GetFullPath(inputPath))!);
        foreach (var framework in SharedFrameworkFolders())
            AddSearchDirectory(framework);
    }

    /// <summary>
    /// The running Microsoft.NETCore.App's folder, then each other shared framework of the same
    /// installation at the same version or, lacking it, at its newest of the same major version.
    /// </summary>
    private static IEnumerable<string> SharedFrameworkFolders()
    {
        var running = SharedFrameworks.RunningNetCoreApp;
        yield return running;
        if (SharedFrameworks.SharedFolder is not { } shared)
            yield break;
        var version = Path.GetFileName(running);
        var major = version.Split('.')[0] + ".";
        foreach (var name in Directory.EnumerateDirectories(shared).Select(Path.GetFileName).OfType<string>()
            .Where(name => name != SharedFrameworks.NetCoreApp).Order(StringComparer.Ordinal))
        {
            var installed = SharedFrameworks.Installed(name); // newest first
            var chosen = installed.FirstOrDefault(i => i.Version == version).Folder
                ?? installed.FirstOrDefault(i => i.Version.StartsWith(major, StringComparison.Ordinal)).Folder;
            if (chosen is not null)
                yield return chosen;
        }
    }

    public override AssemblyDefinition Resolve(AssemblyNameReference name, ReaderParameters parameters)
    {
        if (!_pathsByName.TryGetValue(name.Name, out var path) || !File.Exists(path))
            return base.Resolve(name, parameters);
        try
        {
            return AssemblyDefinition.ReadAssembly(path, new ReaderParameters { AssemblyResolver = this, InMemory = true });
        }
        catch (BadImageFormatException e)
        {
            // Said of the reference: left to the caller, the input would be called no assembly.
            // (Cecil's own search of the folders skips such a file and looks on.)
            throw Diagnostics.FileProblem(DiagnosticCodes.ReferenceNotFound, path,
                $"the rewrite needs it as {name.Name}, given among the references, but it is not a .NET assembly ({e.Message}). Pass the {name.Name}.dll the input was compiled against.");
        }
    }
}
