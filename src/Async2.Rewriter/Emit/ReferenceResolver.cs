using Mono.Cecil;

namespace Async2.Rewriter.Emit;

/// <summary>
/// How the rewrite finds the assemblies its input refers to: among a build's reference paths (or
/// <c>--reference</c>) first, by simple name, then, as Cecil does by default, in the input's folder
/// and the shared framework's. <c>async2 inspect</c> reads the input and its rewrite with the same
/// one, so both pick the same file when several are around.
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
        AddSearchDirectory(Path.GetDirectoryName(typeof(object).Assembly.Location)!);
    }

    public override AssemblyDefinition Resolve(AssemblyNameReference name, ReaderParameters parameters) =>
        _pathsByName.TryGetValue(name.Name, out var path) && File.Exists(path)
            ? AssemblyDefinition.ReadAssembly(path, new ReaderParameters { AssemblyResolver = this, InMemory = true })
            : base.Resolve(name, parameters);
}
