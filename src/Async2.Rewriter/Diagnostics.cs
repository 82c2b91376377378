namespace Async2.Rewriter;

/// <summary>
/// One problem found in the input: a stable code, where it is (assembly, method, IL offset, and the
/// source line when the PDB has one) and why. Codes are stable across releases so that scripts and
/// docs can refer to them.
/// </summary>
public sealed record Diagnostic(string Code, string Assembly, string? Method, int? ILOffset, string Message)
{
    /// <summary>The source line of the IL offset (or of the method), from the input's PDB; null without one.</summary>
    public SourceLocation? Source { get; init; }

    /// <summary>Compiler style, <c>file(line,column): error CODE: ...</c>, when the source line is known, so editors link to it.</summary>
    /// <summary>The method and IL offset (<c>Type::M at IL_001c</c>), or the assembly for a problem with the whole file.</summary>
    public string Site => Method is null ? Assembly : Method + (ILOffset is int offset ? $" at IL_{offset:x4}" : "");

    public override string ToString()
    {
        var where = Method is null ? Site : $"{Assembly}: {Site}";
        var line = $"error {Code}: {where}: {Message}";
        return Source is { } source ? $"{source.File}({source.Line},{source.Column}): {line}" : line;
    }
}

/// <summary>A position in a source file, as a PDB's sequence point records it.</summary>
public sealed record SourceLocation(string File, int Line, int Column);

/// <summary>The diagnostic codes the rewriter reports. Keep docs/diagnostics.md in sync.</summary>
public static class DiagnosticCodes
{
    /// <summary>The input file is missing or is not a .NET assembly.</summary>
    public const string NotAnAssembly = "ASYNC2001";
    /// <summary>The output path would overwrite the input.</summary>
    public const string OutputIsInput = "ASYNC2002";
    /// <summary>The output path is a folder, lies under a file, or cannot be written.</summary>
    public const string OutputNotWritable = "ASYNC2003";
    /// <summary>An assembly the input references is needed to rewrite it and cannot be found; for verify, a framework the app names is not installed.</summary>
    public const string ReferenceNotFound = "ASYNC2004";
    /// <summary>The strong-name key file to sign the output with cannot be read, or does not hold a key pair.</summary>
    public const string KeyNotUsable = "ASYNC2005";
    /// <summary>A warning: the input is instrumented for test coverage, whose method numbers the rewrite shifts.</summary>
    public const string CoverageInstrumented = "ASYNC2010";
    /// <summary>A warning: the output lies in its input's folder under another name, where the host loads the input, which has the same assembly name.</summary>
    public const string OutputBesideInput = "ASYNC2011";
    /// <summary>The input, or an assembly it references, was rewritten by another version of Async2 (another contract).</summary>
    public const string RewrittenByOtherVersion = "ASYNC2007";
    /// <summary>An instruction the transform cannot carry into a variant (tail., jmp, arglist).</summary>
    public const string UnsupportedInstruction = "ASYNC2101";
    /// <summary>A managed pointer (byref) or ref struct would have to live across an await.</summary>
    public const string ByRefAcrossAwait = "ASYNC2102";
    /// <summary>A method shape not supported yet (generic method, generic type, struct, virtual...).</summary>
    public const string UnsupportedMethodShape = "ASYNC2103";
    /// <summary>The evaluation stack could not be typed at an await (inconsistent or unknown IL).</summary>
    public const string UnanalysableStack = "ASYNC2104";
    /// <summary>An await shape that is not one Roslyn emits for runtime async.</summary>
    public const string UnknownAwaitShape = "ASYNC2105";
    /// <summary><c>async2 verify</c>: the JIT refused to compile a method.</summary>
    public const string RejectedByJit = "ASYNC2201";
    /// <summary>The rewriter failed with an exception it did not expect: a bug in Async2, or IL no compiler emits.</summary>
    public const string InternalError = "ASYNC2900";
}

/// <summary>Thrown when an assembly cannot be rewritten; nothing has been written.</summary>
public sealed class RewriteException : Exception
{
    public RewriteException(IReadOnlyList<Diagnostic> diagnostics)
        : base(string.Join(Environment.NewLine, diagnostics))
    {
        Diagnostics = diagnostics;
    }

    public IReadOnlyList<Diagnostic> Diagnostics { get; }
}

internal static class Diagnostics
{
    public static string Describe(Mono.Cecil.MethodReference method) => $"{method.DeclaringType.FullName}::{method.Name}";

    public static Diagnostic At(Mono.Cecil.MethodDefinition method, Mono.Cecil.Cil.Instruction? instruction, string code, string message) =>
        new(code, method.Module.Assembly.Name.Name, Describe(method), instruction?.Offset, message) { Source = SourceOf(method, instruction) };

    /// <summary>A diagnostic at an await, located where the compiler put it (the body has moved into the variant since).</summary>
    internal static Diagnostic AtAwait(Mono.Cecil.MethodDefinition method, Analysis.AwaitSite site, string code, string message) =>
        new(code, method.Module.Assembly.Name.Name, Describe(method), site.Location.Offset, message) { Source = site.Location.Source };

    /// <summary>
    /// The last visible sequence point at or before <paramref name="instruction"/> (the statement it
    /// belongs to), or the method's first one when there is no instruction.
    /// </summary>
    internal static SourceLocation? SourceOf(Mono.Cecil.MethodDefinition method, Mono.Cecil.Cil.Instruction? instruction)
    {
        if (!method.HasBody || !method.DebugInformation.HasSequencePoints)
            return null;
        var point = (instruction is null ? null : StatementAt(method, instruction))
            ?? method.DebugInformation.SequencePoints.FirstOrDefault(point => !point.IsHidden);
        return point is null ? null : new SourceLocation(point.Document.Url, point.StartLine, point.StartColumn);
    }

    /// <summary>
    /// The last visible sequence point at or before <paramref name="instruction"/>, by the offsets
    /// the instructions have: the line the runtime reports for a stack frame at it.
    /// </summary>
    internal static Mono.Cecil.Cil.SequencePoint? StatementAt(Mono.Cecil.MethodDefinition method, Mono.Cecil.Cil.Instruction instruction) =>
        method.DebugInformation.SequencePoints.LastOrDefault(point => !point.IsHidden && point.Offset <= instruction.Offset);

    /// <summary>
    /// An exception the rewriter did not expect, met on <paramref name="method"/>, or on the whole
    /// assembly when it is null. Reported as a diagnostic so that a build names the method and the
    /// way around it, where an escaping exception gives MSBuild's "task failed unexpectedly".
    /// </summary>
    public static Diagnostic InternalError(Mono.Cecil.ModuleDefinition module, Mono.Cecil.MethodDefinition? method, Exception e)
    {
        var workaround = method is null
            ? "build this project without Async2"
            : "compile this method as classic async with [RuntimeAsyncMethodGeneration(false)] (docs/diagnostics.md, ASYNC2900, shows how)";
        var message = $"Async2 failed with {e.GetType().FullName}: {e.Message} (in {InnermostAsync2Frame(e)}). "
            + $"This is a bug in Async2, or IL that no compiler emits: please report it with the assembly. Meanwhile, {workaround}.";
        return method is null
            ? new Diagnostic(DiagnosticCodes.InternalError, module.Assembly.Name.Name, null, null, message)
            : At(method, null, DiagnosticCodes.InternalError, message);
    }

    /// <summary>The rewriter's method the exception left, the place a bug report needs (the top frame is often Cecil's).</summary>
    private static string InnermostAsync2Frame(Exception e)
    {
        var method = new System.Diagnostics.StackTrace(e).GetFrames()
            .Select(frame => frame.GetMethod())
            .FirstOrDefault(method => method?.DeclaringType?.Namespace?.StartsWith("Async2", StringComparison.Ordinal) == true);
        return method is null ? "Async2" : $"{method.DeclaringType!.FullName}.{method.Name}";
    }

    /// <summary>A problem with a whole file (input, output, .pdb, .deps.json), as the exception that stops the rewrite.</summary>
    public static RewriteException FileProblem(string code, string path, string message) =>
        new([new Diagnostic(code, path, null, null, message)]);
}
