namespace Async2.Rewriter;

/// <summary>What to rewrite and where to put it.</summary>
/// <param name="InputPath">The runtime-async assembly; never modified.</param>
/// <param name="OutputPath">Where the rewritten assembly goes (its .pdb goes beside it).</param>
public sealed record RewriteRequest(string InputPath, string OutputPath)
{
    /// <summary>
    /// The assemblies the input was compiled against (a build's reference paths), looked up by name
    /// before the input's own folder and the framework's; empty outside a build.
    /// </summary>
    public IReadOnlyList<string> ReferencePaths { get; init; } = [];

    /// <summary>
    /// Whether Async2.Runtime.dll is copied beside the output and listed in the output's .deps.json.
    /// A build turns it off: there the runtime comes as a package or project reference, which
    /// copies it and lists it itself.
    /// </summary>
    public bool CopyRuntime { get; init; } = true;
}

/// <summary>What happened to one runtime-async method.</summary>
public sealed record MethodOutcome(string Method, bool Rewritten, int AwaitSites, int DirectCalls, string? Reason);

/// <summary>The result of a successful rewrite.</summary>
public sealed class RewriteReport
{
    public required string InputPath { get; init; }
    public required string OutputPath { get; init; }
    /// <summary>False when the input has no runtime-async method: then nothing was written.</summary>
    public required bool HasRuntimeAsyncMethods { get; init; }
    /// <summary>The input has no runtime-async method because Async2 rewrote it already (it references Async2.Runtime).</summary>
    public bool AlreadyRewritten { get; init; }
    public required bool Written { get; init; }
    public required IReadOnlyList<MethodOutcome> Methods { get; init; }
    /// <summary>Methods of other rewritten assemblies that this one calls directly (through a guarded bridge), as "Call|Callvirt method".</summary>
    public IReadOnlyList<string> CrossAssemblyCallees { get; init; } = [];
}
