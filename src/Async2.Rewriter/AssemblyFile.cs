using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;

namespace Async2.Rewriter;

/// <summary>
/// Quick looks at an assembly file through its metadata alone, without loading it for a rewrite:
/// what <c>async2 run</c> and the build need to decide whether there is anything to rewrite.
/// </summary>
public static class AssemblyFile
{
    /// <summary>The MVID of a .NET assembly with at least one runtime-async method; null otherwise (also for a file that is no .NET assembly).</summary>
    public static Guid? RuntimeAsyncMvid(string path) =>
        Read(path, metadata => metadata.MethodDefinitions.Any(handle => ((int)metadata.GetMethodDefinition(handle).ImplAttributes & RuntimeNames.AsyncImplFlag) != 0)
            ? Mvid(metadata)
            : null);

    /// <summary>Whether <paramref name="path"/> is a .NET assembly (a PE file with metadata).</summary>
    public static bool IsManaged(string path) => Mvid(path) is not null;

    /// <summary>The MVID of a .NET assembly (kept by a rewrite, so it ties an output to its input); null for a file that is no .NET assembly.</summary>
    public static Guid? Mvid(string path) => Read(path, metadata => Mvid(metadata));

    /// <summary>The simple names of the assemblies <paramref name="path"/> references (none for a file that is no .NET assembly).</summary>
    public static IReadOnlyList<string> ReferencedAssemblies(string path) =>
        ReadNames(path, metadata => metadata.AssemblyReferences.Select(handle => metadata.GetString(metadata.GetAssemblyReference(handle).Name)));

    private static IReadOnlyList<string> ReadNames(string path, Func<MetadataReader, IEnumerable<string>> look)
    {
        try
        {
            using var stream = File.OpenRead(path);
            using var pe = new PEReader(stream);
            return pe.HasMetadata ? [.. look(pe.GetMetadataReader())] : [];
        }
        catch (BadImageFormatException)
        {
            return [];
        }
    }

    private static Guid Mvid(MetadataReader metadata) => metadata.GetGuid(metadata.GetModuleDefinition().Mvid);

    private static Guid? Read(string path, Func<MetadataReader, Guid?> look)
    {
        try
        {
            using var stream = File.OpenRead(path);
            using var pe = new PEReader(stream);
            return pe.HasMetadata ? look(pe.GetMetadataReader()) : null;
        }
        catch (BadImageFormatException)
        {
            return null; // e.g. a native library beside an app
        }
    }
}
