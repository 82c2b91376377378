using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Runtime.InteropServices;
using System.Xml.Linq;

namespace Async2.Cli.Bench;

/// <summary>
/// Async2.Runtime as its package gives it on this machine. The package carries a ReadyToRun image
/// for a few runtime identifiers beside the IL, so a process JIT-compiles half as many of the
/// library's methods at its first suspension; the rewriter writes the IL beside the bench's Async2
/// builds. This builds the image the way packing does (Async2.Runtime.csproj's
/// Async2ReadyToRunImages target, for this machine's identifier alone) and puts it in the IL's
/// place, so every row times what a package user runs. Stays in sync with that target: its
/// identifier list and its output folder.
/// </summary>
internal static class RuntimeLibraryImage
{
    private const string FileName = "Async2.Runtime.dll";

    /// <summary>This tool's build configuration: the rewriter writes the Async2.Runtime built with it.</summary>
    private static readonly string Configuration = typeof(RuntimeLibraryImage).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Release";

    /// <summary>What the Async2 builds run, for the report; and what went wrong, if anything did.</summary>
    public readonly record struct Outcome(string Description, string? Problem);

    /// <param name="folders">The Async2 builds' folders, where the rewriter wrote the library's IL.</param>
    public static Outcome Install(string repository, IReadOnlyCollection<string> folders, Action<string> progress)
    {
        // The rewriter's own copy: its rewritten code is tied to this build of the library. A folder
        // whose rewrite was up to date may hold an older one.
        var library = typeof(Async2.Runtime.Continuation).Assembly.Location;
        var project = Path.Combine(repository, "src", "Async2.Runtime", "Async2.Runtime.csproj");
        var identifiers = XDocument.Load(project).Descendants("Async2ReadyToRunIdentifiers").Single().Value.Split(';');
        var identifier = MachineIdentifier();
        if (!identifiers.Contains(identifier))
            return CopyInto(folders, library, new($"IL, JIT-compiled: the package carries no ReadyToRun image for {identifier}", null));

        // The target compiles the project's last build (obj/), the one this tool was built with
        // unless the library was built again since; no build first, which would make a new one
        // whenever the commit changed (the assembly's informational version names it).
        progress($"dotnet msbuild Async2.Runtime -t:Async2ReadyToRunImages ({identifier})");
        var (exitCode, log) = ChildProcess.RunCaptured(
        [
            "msbuild", project, "-t:Async2ReadyToRunImages", "-nologo", "-v:quiet",
            $"-p:Configuration={Configuration}", $"-p:Async2ReadyToRunIdentifiers={identifier}",
        ]);
        var image = Path.Combine(repository, "artifacts", "readytorun", identifier, "publish", FileName);
        string? why = exitCode != 0 || !File.Exists(image)
            ? $"building its ReadyToRun image for {identifier} failed (exit code {exitCode}):\n{log.Trim()}"
            : ModuleVersionId(image) != typeof(Async2.Runtime.Continuation).Module.ModuleVersionId
                ? $"the ReadyToRun image built for {identifier} is of another build than this tool's {library} (rebuild the tool: dotnet build src/Async2.Cli -c {Configuration})"
                : null;
        if (why is null)
            return CopyInto(folders, image, new($"ReadyToRun image for {identifier}, as the package gives it (crossgen2 at pack time)", null));
        progress($"warning: the Async2 builds run Async2.Runtime's IL: {why}");
        return CopyInto(folders, library, new("IL, JIT-compiled, not the package's ReadyToRun image (see Problems)", $"Async2.Runtime: {why}; the Async2 builds ran its IL"));
    }

    private static Outcome CopyInto(IEnumerable<string> folders, string library, Outcome outcome)
    {
        foreach (var folder in folders)
            File.Copy(library, Path.Combine(folder, FileName), overwrite: true);
        return outcome;
    }

    /// <summary>The identifier NuGet would pick from the package's list here (a musl Linux falls back to linux-*, as its graph does).</summary>
    internal static string MachineIdentifier()
    {
        var os = OperatingSystem.IsWindows() ? "win" : OperatingSystem.IsMacOS() ? "osx" : "linux";
        return $"{os}-{RuntimeInformation.OSArchitecture.ToString().ToLowerInvariant()}";
    }

    internal static Guid ModuleVersionId(string assembly)
    {
        using var pe = new PEReader(File.OpenRead(assembly));
        var metadata = pe.GetMetadataReader();
        return metadata.GetGuid(metadata.GetModuleDefinition().Mvid);
    }
}
