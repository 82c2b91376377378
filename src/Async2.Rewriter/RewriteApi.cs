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

    /// <summary>
    /// The strong-name key pair (.snk) to sign the output with: the one the input was signed with,
    /// since a rewrite changes the bytes its signature covers. A build passes the project's key
    /// when it signs. Null: the output keeps the input's public key (its identity) but is not
    /// signed, as a public-signed assembly (<see cref="RewriteReport.SignatureDropped"/>).
    /// </summary>
    public string? StrongNameKeyFile { get; init; }

    /// <summary>
    /// Stops the rewrite at its next step with an <see cref="OperationCanceledException"/> (Ctrl+C,
    /// a canceled build). Once the output's files start moving into place they all go: an
    /// interrupted rewrite leaves no output and no scratch folder.
    /// </summary>
    public CancellationToken Cancellation { get; init; }
}

/// <summary>What happened to one runtime-async method.</summary>
public sealed record MethodOutcome(string Method, bool Rewritten, int AwaitSites, int DirectCalls, string? Reason)
{
    /// <summary>Each suspension point of the rewritten method, in state order (empty when it was not rewritten).</summary>
    public IReadOnlyList<AwaitOutcome> Awaits { get; init; } = [];

    /// <summary>The continuation class holding the method's suspended state (and its variant), by full name.</summary>
    public string? Continuation { get; init; }

    /// <summary>Whether the method starts with the deep-recursion check (it is on a call cycle).</summary>
    public bool StackGuard { get; init; }

    /// <summary>Whether the method's body is bracketed by a context scope (compatible context mode, and it can change a context).</summary>
    public bool ContextScope { get; init; }
}

/// <summary>
/// One suspension point: where it is in the original method, what the rewriter made of it, and
/// what a suspension there keeps in the continuation.
/// </summary>
/// <param name="State">The state number resumption dispatches on.</param>
/// <param name="ILOffset">The await's offset in the original method's IL (-1 for the stack guard, which the source has not).</param>
/// <param name="Kind">How it is awaited: <c>direct</c>, <c>virtual-entry</c>, <c>interface-entry</c>, <c>task-bridge</c>, <c>awaiter</c>, <c>stack-guard</c>.</param>
/// <param name="Awaited">The method called or the type awaited.</param>
/// <param name="Why">For an await that is not a direct call: why it goes through the Task or awaiter path.</param>
/// <param name="Live">The locals and arguments kept across it.</param>
public sealed record AwaitOutcome(int State, int ILOffset, SourceLocation? Source, string Kind, string Awaited, string? Why, IReadOnlyList<LiveVariable> Live);

/// <summary>A local or argument live across a suspension point: its name (from the PDB where it has one) and type.</summary>
public sealed record LiveVariable(string Name, string Type);

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
    /// <summary>
    /// The async methods the compiler built as classic state machines, as <c>Type::Method</c>: async
    /// void methods, async iterators and [RuntimeAsyncMethodGeneration(false)] in a runtime-async
    /// assembly, every async method in one for a framework without runtime async. The rewrite leaves
    /// them as they are; they are not in <see cref="Methods"/>.
    /// </summary>
    public IReadOnlyList<string> ClassicMethods { get; init; } = [];
    /// <summary>
    /// The input carried a strong-name signature and no key was given to sign the output with:
    /// the output keeps the public key but its signature is zero, as a public-signed assembly's.
    /// </summary>
    public bool SignatureDropped { get; init; }
    /// <summary>
    /// The input is instrumented for test coverage, whose method numbers the rewrite shifts
    /// (<see cref="CoverageInstrumentation"/>): the caller warns with <see cref="CoverageInstrumentation.Warning"/>.
    /// </summary>
    public bool InstrumentedForCoverage { get; init; }
    /// <summary>Methods of other rewritten assemblies that this one calls directly (through a guarded bridge), as "Call|Callvirt method".</summary>
    public IReadOnlyList<string> CrossAssemblyCallees { get; init; } = [];
}
