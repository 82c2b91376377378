using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;

namespace Async2.Rewriter;

/// <summary>
/// Quick looks at an assembly file through its headers and metadata alone, without loading it:
/// whether it can be an input at all (Cecil trusts the image it is given, and a truncated one makes
/// it read past the end deep inside), and what <c>async2 run</c> and the build need to decide
/// whether there is anything to rewrite.
/// </summary>
public static class AssemblyFile
{
    /// <summary>
    /// Why <paramref name="path"/> cannot be rewritten, run or verified (a directory, missing, empty, truncated,
    /// not a .NET assembly, a reference assembly), as a sentence that also says what to do; null if
    /// it looks like an implementation assembly.
    /// </summary>
    public static string? WhyNotAnInput(string path)
    {
        if (Directory.Exists(path))
            return "it is a directory, not a file. Pass the path of a .NET assembly (.dll) in it, such as bin/Release/net10.0/App.dll.";
        // A symbolic link is measured by the file it leads to, not by its own length.
        var file = new FileInfo(path);
        if (file.LinkTarget is not null)
            file = file.ResolveLinkTarget(returnFinalTarget: true) as FileInfo ?? file;
        if (!file.Exists)
            return "the file does not exist. Pass the path of a .NET assembly (.dll).";
        var length = file.Length;
        if (length == 0)
            return "the file is empty (an interrupted build or copy?). Pass the .dll the compiler wrote, or rebuild.";
        try
        {
            using var stream = File.OpenRead(path);
            using var pe = new PEReader(stream);
            var headers = pe.PEHeaders;
            if (!pe.HasMetadata)
                return "it is a native library or program, not a .NET assembly. Pass a managed .dll.";
            foreach (var section in headers.SectionHeaders)
            {
                long end = (long)section.PointerToRawData + section.SizeOfRawData;
                if (end > length)
                    return $"it is truncated: its {section.Name} section ends at byte {end}, the file at byte {length}. Rebuild it or copy it again.";
            }
            var metadata = pe.GetMetadataReader();
            if (IsReferenceAssembly(metadata))
                return "it is a reference assembly (obj/ref/, ref/ or a targeting pack), which has no method bodies. Pass the implementation assembly, such as the one in bin/.";
            if (IsCoreLibrary(metadata))
                return "it is the runtime's core library (System.Private.CoreLib, which defines System.Object): its async methods are the runtime's own runtime async (AsyncHelpers), which Async2 replaces in the assemblies that call it, and Async2.Runtime runs on it, so it cannot be rewritten. "
                    + "Rewrite the assemblies that call into it; they run on it as it is.";
            return null;
        }
        catch (BadImageFormatException e)
        {
            return $"it is not a .NET assembly ({e.Message}). Pass a managed .dll.";
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return $"it cannot be read ({e.Message}).";
        }
    }

    /// <summary>
    /// The MVID of a .NET assembly with at least one runtime-async method; null otherwise (also for
    /// a file that is missing, unreadable or no .NET assembly, and for the runtime's core library,
    /// which a self-contained app carries: its async methods are the runtime's own AsyncHelpers, which
    /// Async2 replaces in other assemblies and cannot rewrite).
    /// </summary>
    public static Guid? RuntimeAsyncMvid(string path) =>
        Read<Guid?>(path, metadata => metadata.MethodDefinitions.Any(handle => ((int)metadata.GetMethodDefinition(handle).ImplAttributes & RuntimeNames.AsyncImplFlag) != 0)
            && !IsCoreLibrary(metadata)
            ? Mvid(metadata)
            : null, orElse: null);

    /// <summary>Whether the assembly is the runtime's core library (System.Private.CoreLib): the one that defines System.Object.</summary>
    internal static bool IsCoreLibrary(MetadataReader metadata) =>
        metadata.TypeDefinitions.Any(handle => metadata.GetTypeDefinition(handle) is var type
            && metadata.StringComparer.Equals(type.Name, "Object") && metadata.StringComparer.Equals(type.Namespace, "System"));

    /// <summary>The MVID of a .NET assembly (kept by a rewrite, so it ties an output to its input); null for a file that is no .NET assembly.</summary>
    public static Guid? Mvid(string path) => Read<Guid?>(path, metadata => Mvid(metadata), orElse: null);

    /// <summary>The simple names of the assemblies <paramref name="path"/> references (none for a file that is no .NET assembly).</summary>
    public static IReadOnlyList<string> ReferencedAssemblies(string path) =>
        Read<IReadOnlyList<string>>(path, metadata => [.. metadata.AssemblyReferences.Select(handle => metadata.GetString(metadata.GetAssemblyReference(handle).Name))], orElse: []);

    /// <summary>The assembly's version (0.0.0.0 for a file that is no .NET assembly).</summary>
    public static Version AssemblyVersion(string path) =>
        Read(path, metadata => metadata.IsAssembly ? metadata.GetAssemblyDefinition().Version : new Version(0, 0, 0, 0), orElse: new Version(0, 0, 0, 0));

    /// <summary>
    /// Whether the assembly carries a strong-name signature: signed with a private key, not
    /// delay-signed or public-signed (those reserve the signature's space and leave it zero).
    /// </summary>
    public static bool HasStrongNameSignature(string path)
    {
        try
        {
            var bytes = File.ReadAllBytes(path);
            using var pe = new PEReader(new MemoryStream(bytes));
            if (pe.PEHeaders.CorHeader is not { } cor || (cor.Flags & CorFlags.StrongNameSigned) == 0)
                return false;
            var signature = cor.StrongNameSignatureDirectory;
            return signature.Size > 0
                && pe.PEHeaders.TryGetDirectoryOffset(signature, out int offset)
                && bytes.AsSpan(offset, signature.Size).ContainsAnyExcept((byte)0);
        }
        catch (Exception e) when (e is BadImageFormatException or IOException or UnauthorizedAccessException or ArgumentOutOfRangeException)
        {
            return false;
        }
    }

    /// <summary>
    /// Whether <paramref name="pdb"/> is the portable PDB the assembly was compiled with: the id in
    /// the assembly's CodeView debug entry is the PDB's. False for a PDB left from an earlier build
    /// (a project switched to DebugType none keeps the old one in obj/ until the build's end), for
    /// an assembly built without one, and for files that cannot be read.
    /// </summary>
    public static bool PdbBelongsTo(string assembly, string pdb)
    {
        try
        {
            using var stream = File.OpenRead(assembly);
            using var pe = new PEReader(stream);
            var codeView = pe.ReadDebugDirectory().FirstOrDefault(entry => entry.Type == DebugDirectoryEntryType.CodeView);
            if (codeView.Type != DebugDirectoryEntryType.CodeView)
                return false;
            var expected = new BlobContentId(pe.ReadCodeViewDebugDirectoryData(codeView).Guid, codeView.Stamp);
            using var symbols = MetadataReaderProvider.FromPortablePdbStream(File.OpenRead(pdb));
            return new BlobContentId(symbols.GetMetadataReader().DebugMetadataHeader!.Id) == expected;
        }
        catch (Exception e) when (e is BadImageFormatException or IOException or UnauthorizedAccessException or InvalidOperationException)
        {
            return false;
        }
    }

    /// <summary>
    /// The path of its .pdb that <paramref name="assembly"/>'s CodeView debug entry records (where the
    /// compiler wrote it, or the PathMap'd path); null when it records none or cannot be read.
    /// </summary>
    public static string? RecordedPdbPath(string assembly)
    {
        try
        {
            using var stream = File.OpenRead(assembly);
            using var pe = new PEReader(stream);
            var codeView = pe.ReadDebugDirectory().FirstOrDefault(entry => entry.Type == DebugDirectoryEntryType.CodeView);
            return codeView.Type == DebugDirectoryEntryType.CodeView ? pe.ReadCodeViewDebugDirectoryData(codeView).Path : null;
        }
        catch (Exception e) when (e is BadImageFormatException or IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// Why the .pdb beside <paramref name="assembly"/>, which a rewrite reads for its line numbers,
    /// cannot be read (empty, or neither a portable nor a Windows PDB, or a damaged one), as a
    /// sentence that also says what to do; null if it can, if there is none, or if the assembly
    /// embeds its symbols (they win over the file, which is then not read).
    /// </summary>
    public static string? WhyItsPdbCannotBeRead(string assembly)
    {
        var pdb = Path.ChangeExtension(assembly, ".pdb");
        if (!File.Exists(pdb))
            return null;
        const string fix = "Rebuild, or remove the .pdb (the rewritten assembly then has none).";
        try
        {
            using (var stream = File.OpenRead(assembly))
            using (var pe = new PEReader(stream))
                if (pe.ReadDebugDirectory().Any(entry => entry.Type == DebugDirectoryEntryType.EmbeddedPortablePdb))
                    return null;
            using var symbols = File.OpenRead(pdb);
            if (symbols.Length == 0)
                return $"its symbols beside it, {pdb}, are an empty file (an interrupted build?). {fix}";
            var magic = new byte[WindowsPdbMagic.Length];
            symbols.ReadAtLeast(magic, magic.Length, throwOnEndOfStream: false);
            if (magic.AsSpan().SequenceEqual(WindowsPdbMagic))
                return null;
            symbols.Position = 0;
            using var provider = MetadataReaderProvider.FromPortablePdbStream(symbols, MetadataStreamOptions.LeaveOpen | MetadataStreamOptions.PrefetchMetadata);
            provider.GetMetadataReader();
            return null;
        }
        catch (BadImageFormatException e)
        {
            return $"its symbols beside it, {pdb}, are not a PDB or are damaged ({e.Message}). {fix}";
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return $"its symbols beside it, {pdb}, cannot be read ({e.Message}). {fix}";
        }
    }

    /// <summary>How a Windows (MSF) PDB starts, which Cecil reads too.</summary>
    private static ReadOnlySpan<byte> WindowsPdbMagic => "Microsoft C/C++ MSF 7.00\r\n"u8;

    private static Guid Mvid(MetadataReader metadata) => metadata.GetGuid(metadata.GetModuleDefinition().Mvid);

    /// <summary><paramref name="look"/> at the file's metadata; <paramref name="orElse"/> for a file that is missing, unreadable or no .NET assembly (a native library beside an app).</summary>
    private static T Read<T>(string path, Func<MetadataReader, T> look, T orElse)
    {
        try
        {
            using var stream = File.OpenRead(path);
            using var pe = new PEReader(stream);
            return pe.HasMetadata ? look(pe.GetMetadataReader()) : orElse;
        }
        catch (Exception e) when (e is BadImageFormatException or IOException or UnauthorizedAccessException)
        {
            return orElse;
        }
    }

    /// <summary>
    /// The framework the assembly was built for (its [TargetFramework], such as
    /// ".NETCoreApp,Version=v8.0") when that framework has no runtime async, so the compiler built
    /// every async method classic whatever the project asked for: anything but .NET 10 or later.
    /// Null when it targets .NET 10 or later, or says nothing.
    /// </summary>
    public static string? FrameworkWithoutRuntimeAsync(string path) =>
        Read(path, metadata =>
        {
            var framework = TargetFramework(metadata);
            const string netCoreApp = ".NETCoreApp,Version=v";
            return framework is null
                || (framework.StartsWith(netCoreApp, StringComparison.Ordinal)
                    && Version.TryParse(framework[netCoreApp.Length..], out var version) && version.Major >= 10)
                ? null
                : framework;
        }, orElse: null);

    /// <summary>The first argument of the assembly's [TargetFramework], if it has one.</summary>
    private static string? TargetFramework(MetadataReader metadata)
    {
        if (!metadata.IsAssembly)
            return null;
        foreach (var handle in metadata.GetAssemblyDefinition().GetCustomAttributes())
        {
            var attribute = metadata.GetCustomAttribute(handle);
            if (!IsAttribute(metadata, attribute, "System.Runtime.Versioning", "TargetFrameworkAttribute"))
                continue;
            // The value blob: the prolog 0x0001, then the constructor's string argument.
            var blob = metadata.GetBlobReader(attribute.Value);
            return blob.ReadUInt16() == 1 ? blob.ReadSerializedString() : null;
        }
        return null;
    }

    /// <summary>Whether the assembly carries [ReferenceAssembly] (declared elsewhere, or by itself as System.Runtime's reference does).</summary>
    private static bool IsReferenceAssembly(MetadataReader metadata) =>
        metadata.IsAssembly && metadata.GetAssemblyDefinition().GetCustomAttributes().Any(handle =>
            IsAttribute(metadata, metadata.GetCustomAttribute(handle), "System.Runtime.CompilerServices", "ReferenceAssemblyAttribute"));

    private static bool IsAttribute(MetadataReader metadata, CustomAttribute attribute, string @namespace, string name)
    {
        var constructor = attribute.Constructor;
        var (typeName, typeNamespace) = constructor.Kind switch
        {
            HandleKind.MemberReference when metadata.GetMemberReference((MemberReferenceHandle)constructor).Parent is { Kind: HandleKind.TypeReference } parent
                => (metadata.GetTypeReference((TypeReferenceHandle)parent).Name, metadata.GetTypeReference((TypeReferenceHandle)parent).Namespace),
            HandleKind.MethodDefinition when metadata.GetMethodDefinition((MethodDefinitionHandle)constructor).GetDeclaringType() is var type
                => (metadata.GetTypeDefinition(type).Name, metadata.GetTypeDefinition(type).Namespace),
            _ => (default(StringHandle), default(StringHandle)),
        };
        return !typeName.IsNil && metadata.StringComparer.Equals(typeName, name) && metadata.StringComparer.Equals(typeNamespace, @namespace);
    }
}
