using Async2.Rewriter;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace Async2.Build;

/// <summary>
/// Rewrites a project's intermediate assembly (obj/.../X.dll) in place, right after the compiler
/// wrote it and before anything copies it: every copy the build makes (bin/, referencing projects'
/// outputs, publish, NativeAOT) is then the rewritten one.
///
/// The compiler's output is first kept as obj/.../async2/X.dll (with its .pdb): the rewriter never
/// writes over its input, and a rewrite that has to be redone (a newer Async2) starts from it.
/// The rewritten assembly keeps the compiled one's MVID, which ties the two together.
///
/// On failure the intermediate assembly is deleted, so no runtime-async assembly that the stock
/// runtime cannot load is copied on by this or a later build; the compiler runs again next time.
/// </summary>
public sealed class RewriteIntermediateAssembly : Microsoft.Build.Utilities.Task, ICancelableTask
{
    private readonly CancellationTokenSource _cancellation = new();

    /// <summary>The compiler's output, obj/.../X.dll; replaced by its rewrite.</summary>
    [Required]
    public string IntermediateAssembly { get; set; } = "";

    /// <summary>Where the compiler's own output is kept (obj/.../async2/).</summary>
    [Required]
    public string CompiledAssemblyFolder { get; set; } = "";

    /// <summary>The assemblies the project was compiled against (@(ReferencePath)).</summary>
    public ITaskItem[] References { get; set; } = [];

    /// <summary>
    /// The key pair the compiler signed the assembly with ($(KeyOriginatorFile) when the project
    /// signs, and neither delay- nor public-signs): the rewrite changes the signed bytes, so the
    /// rewritten assembly is signed again with it.
    /// </summary>
    public string? StrongNameKeyFile { get; set; }

    /// <summary>$(TargetFramework), named on the build line: a multi-targeted project rewrites once per framework.</summary>
    public string? TargetFramework { get; set; }

    public override bool Execute()
    {
        var intermediate = Path.GetFullPath(IntermediateAssembly);
        var compiled = Path.Combine(Path.GetFullPath(CompiledAssemblyFolder), Path.GetFileName(intermediate));
        try
        {
            if (!KeepCompiledAssembly(intermediate, compiled))
            {
                // Said at the default verbosity, as a rewrite is: a project with the package always tells what its build did (README, "Using it in a build").
                Log.LogMessage(MessageImportance.High, $"Async2: {Named(intermediate)} has no async methods; nothing to rewrite.");
                return true;
            }
            var report = AssemblyRewriter.Rewrite(new RewriteRequest(compiled, intermediate)
            {
                ReferencePaths = References.Select(reference => reference.ItemSpec).ToList(),
                CopyRuntime = false,
                StrongNameKeyFile = string.IsNullOrEmpty(StrongNameKeyFile) ? null : StrongNameKeyFile,
                Cancellation = _cancellation.Token,
            });
            int rewritten = report.Methods.Count(method => method.Rewritten);
            Log.LogMessage(MessageImportance.High, $"Async2: rewrote {rewritten} async method{(rewritten == 1 ? "" : "s")} of {Named(intermediate)}.");
            // A key container (KeyContainerName) or [assembly: AssemblyKeyFile] signs without the key file the build passes on.
            if (report.SignatureDropped)
                Log.LogWarning(subcategory: null, warningCode: DiagnosticCodes.KeyNotUsable, helpKeyword: null, file: intermediate,
                    lineNumber: 0, columnNumber: 0, endLineNumber: 0, endColumnNumber: 0,
                    message: "the compiler strong-name signed this assembly, but not with a key file the build names (a key container, or [assembly: AssemblyKeyFile] in the source), so Async2 cannot sign the rewritten assembly again: it keeps its public key but is not signed. Sign with <AssemblyOriginatorKeyFile>, or use <PublicSign>.");
            // Instrument set after the targets read it (Directory.Build.targets): the targets build classic otherwise.
            if (report.InstrumentedForCoverage)
                Log.LogWarning(subcategory: null, warningCode: DiagnosticCodes.CoverageInstrumented, helpKeyword: null, file: intermediate,
                    lineNumber: 0, columnNumber: 0, endLineNumber: 0, endColumnNumber: 0, message: CoverageInstrumentation.Warning(Path.GetFileName(intermediate)));
            return true;
        }
        catch (RewriteException e)
        {
            foreach (var diagnostic in e.Diagnostics)
                LogError(diagnostic);
        }
        catch (OperationCanceledException) when (_cancellation.IsCancellationRequested)
        {
            Log.LogMessage(MessageImportance.Normal, $"Async2: the build was canceled; {Named(intermediate)} was not rewritten.");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            Log.LogError(subcategory: null, errorCode: DiagnosticCodes.OutputNotWritable, helpKeyword: null, file: intermediate,
                lineNumber: 0, columnNumber: 0, endLineNumber: 0, endColumnNumber: 0,
                message: $"the compiler's output could not be kept in {Path.GetDirectoryName(compiled)} or the rewritten assembly could not be written: {e.Message}");
        }
        DeleteUnrewritten(intermediate);
        return false;
    }

    /// <summary>Called by MSBuild on another thread when the build is canceled (Ctrl+C): the rewrite stops at its next step and writes nothing.</summary>
    public void Cancel() => _cancellation.Cancel();

    private string Named(string assembly) =>
        string.IsNullOrEmpty(TargetFramework) ? Path.GetFileName(assembly) : $"{Path.GetFileName(assembly)} ({TargetFramework})";

    /// <summary>
    /// Copies the compiler's output aside when <paramref name="intermediate"/> is one; returns false
    /// when there is nothing to rewrite (no runtime-async method, and no kept copy it was rewritten
    /// from). A kept copy exists exactly when the assembly is rewritten: the targets read that
    /// (Async2CheckRuntimeFlows), so one left by a build that had async methods is removed.
    /// </summary>
    private static bool KeepCompiledAssembly(string intermediate, string compiled)
    {
        var fresh = AssemblyFile.RuntimeAsyncMvid(intermediate);
        if (fresh is null)
        {
            if (!File.Exists(compiled))
                return false;
            if (AssemblyFile.Mvid(compiled) is { } kept && kept == AssemblyFile.Mvid(intermediate))
                return true;
            File.Delete(compiled);
            File.Delete(Path.ChangeExtension(compiled, ".pdb"));
            return false;
        }

        Directory.CreateDirectory(Path.GetDirectoryName(compiled)!);
        CopyAtomically(intermediate, compiled);
        var pdb = Path.ChangeExtension(intermediate, ".pdb");
        var keptPdb = Path.ChangeExtension(compiled, ".pdb");
        // Only the compiler's own: a project switched to DebugType none leaves the previous build's PDB in obj/.
        if (File.Exists(pdb) && AssemblyFile.PdbBelongsTo(intermediate, pdb))
            CopyAtomically(pdb, keptPdb);
        else
            File.Delete(keptPdb);
        return true;
    }

    private static void CopyAtomically(string from, string to)
    {
        var scratch = to + ".tmp";
        File.Copy(from, scratch, overwrite: true);
        File.Move(scratch, to, overwrite: true);
    }

    private static void DeleteUnrewritten(string intermediate)
    {
        File.Delete(intermediate);
        File.Delete(Path.ChangeExtension(intermediate, ".pdb"));
    }

    private void LogError(Diagnostic diagnostic)
    {
        Log.LogError(subcategory: null, errorCode: diagnostic.Code, helpKeyword: null,
            file: diagnostic.Source?.File ?? (diagnostic.Method is null ? diagnostic.Assembly : IntermediateAssembly),
            lineNumber: diagnostic.Source?.Line ?? 0, columnNumber: diagnostic.Source?.Column ?? 0, endLineNumber: 0, endColumnNumber: 0,
            message: $"{diagnostic.Site}: {diagnostic.Message}");
    }
}
