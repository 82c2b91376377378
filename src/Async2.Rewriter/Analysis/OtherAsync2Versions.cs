using Async2.Rewriter.Rewrite;
using Mono.Cecil;

namespace Async2.Rewriter.Analysis;

/// <summary>
/// Code rewritten by another version of Async2, as the input or among its references. Its variants
/// use the Async2.Runtime members of that version's ABI (<see cref="CrossAssemblyContract.Version"/>),
/// and an app gets one Async2.Runtime: with this version's, the JIT refuses them at their first
/// call (MissingFieldException). Found when rewriting, it is an error that says what to rebuild.
/// </summary>
internal static class OtherAsync2Versions
{
    /// <summary>The input itself, already rewritten (it has no runtime-async method left), by another version.</summary>
    public static Diagnostic? OfInput(ModuleDefinition module) =>
        Other(module) is { } other
            ? new Diagnostic(DiagnosticCodes.RewrittenByOtherVersion, module.Assembly.Name.Name, null, null,
                $"it was rewritten by Async2 {other.Async2Version} (contract {other.Contract}); this is Async2 "
                + $"{CrossAssemblyContract.Async2Version} (contract {CrossAssemblyContract.Version}), whose Async2.Runtime cannot run "
                + "code rewritten under another contract. Rebuild it from its source with this version of Async2, or run it with the version that rewrote it")
            : null;

    /// <summary>The input's references rewritten by another version, which the rewritten input would run beside.</summary>
    public static IEnumerable<Diagnostic> AmongReferences(ModuleDefinition module)
    {
        foreach (var reference in module.AssemblyReferences)
        {
            if (reference.Name == RuntimeNames.RuntimeAssembly)
                continue;
            AssemblyDefinition? assembly;
            try
            {
                assembly = module.AssemblyResolver.Resolve(reference);
            }
            catch (AssemblyResolutionException)
            {
                continue;
            }
            if (assembly is not null && Other(assembly.MainModule) is { } other)
                yield return new Diagnostic(DiagnosticCodes.RewrittenByOtherVersion, module.Assembly.Name.Name, null, null,
                    $"it references {reference.Name}, which was rewritten by Async2 {other.Async2Version} (contract {other.Contract}); "
                    + $"this is Async2 {CrossAssemblyContract.Async2Version} (contract {CrossAssemblyContract.Version}). The app gets one "
                    + $"Async2.Runtime, this version's, with which {reference.Name}'s rewritten methods fail at their first call "
                    + $"(MissingFieldException). Rebuild {reference.Name} with this version of Async2 (a package: one built with it), "
                    + "or build this project with the version that rewrote it");
        }
    }

    /// <summary>
    /// An assembly an app already carries rewritten (built with Async2.Build), which <c>async2 run</c>
    /// would run beside the assemblies it rewrites and with this version's Async2.Runtime.
    /// </summary>
    public static Diagnostic? OfAppAssembly(string path, string nameInApp)
    {
        using var module = ModuleDefinition.ReadModule(path);
        // Only a marked one: an assembly that uses Async2.Runtime's API without async methods is not rewritten.
        return CrossAssemblyContract.RewrittenUnder(module) is { Contract: > 0 } other && other.Contract != CrossAssemblyContract.Version
            ? new Diagnostic(DiagnosticCodes.RewrittenByOtherVersion, module.Assembly.Name.Name, null, null,
                $"the app's {nameInApp} was rewritten by Async2 {other.Async2Version} (contract {other.Contract}) when it was built, "
                + $"and this is Async2 {CrossAssemblyContract.Async2Version} (contract {CrossAssemblyContract.Version}), "
                + "which would rewrite the app's runtime-async assemblies beside it: an app loads one Async2.Runtime, and neither version's runs "
                + "both. Build the whole app with one version of Async2.Build, or run it with the async2 of the version that built it")
            : null;
    }

    private static (int Contract, string Async2Version)? Other(ModuleDefinition module) =>
        CrossAssemblyContract.RewrittenUnder(module) is { } under && under.Contract != CrossAssemblyContract.Version ? under : null;
}
