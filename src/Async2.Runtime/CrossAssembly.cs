// CrossAssembly: direct calls between assemblies that Async2 rewrote separately.
//
// A rewritten caller calls the async2 variants and entries of a rewritten callee in another
// assembly directly (the rewriter's Rewrite/ForeignCalls.cs), but only while the callee loaded at
// run time is the very build the caller was rewritten against: the callee may have been replaced
// since by a classic build, one rewritten under another contract version, or a rebuild whose
// variants are named differently. The rewriter names each rewritten assembly's build in a marker
// method (Rewrite/CrossAssemblyContract.cs); the caller checks once per callee assembly, when its
// call bridges are first used, that the marker exists by calling a small probe method that names
// it. JIT-compiling (or, under NativeAOT, running) a probe whose marker is missing throws, so the
// probe's method is the only one naming the marker, and the bridges take the Task path instead.
// Names are looked up by the rewriter (RuntimeNames).
using System.ComponentModel;

namespace Async2.Runtime;

/// <summary>
/// Put on every assembly Async2 rewrites: the cross-assembly contract version its variants and
/// entries follow, and the Async2 version that rewrote it. A rewriter only calls directly into
/// assemblies that carry its own contract version.
/// </summary>
[EditorBrowsable(EditorBrowsableState.Never)]
[AttributeUsage(AttributeTargets.Assembly, AllowMultiple = false)]
public sealed class RewrittenByAsync2Attribute(int contractVersion, string async2Version) : Attribute
{
    public int ContractVersion { get; } = contractVersion;
    public string Async2Version { get; } = async2Version;
}

[EditorBrowsable(EditorBrowsableState.Never)]
public static class CrossAssembly
{
    /// <summary>
    /// Whether <paramref name="probe"/>, a method naming the callee build's marker, runs: false
    /// when the marker is missing or not accessible (the callee is another build than the one the
    /// caller was rewritten against), or the callee's assembly cannot be loaded.
    /// </summary>
    public static bool Links(Action probe)
    {
        try
        {
            probe();
            return true;
        }
        catch (Exception e) when (e is MemberAccessException or TypeLoadException or IOException or BadImageFormatException)
        {
            // MissingMethodException, MethodAccessException, TypeLoadException; an assembly that
            // cannot be loaded (FileNotFoundException, FileLoadException), whose Task path then
            // fails at the call as classic code does.
            return false;
        }
    }
}
