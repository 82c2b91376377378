using Async2.Rewriter.Analysis;
using Async2.Rewriter.Emit;
using Async2.Rewriter.Rewrite;
using Mono.Cecil;

namespace Async2.Rewriter;

/// <summary>
/// Rewrites a runtime-async assembly so that it runs on a stock .NET 10 runtime.
/// The pipeline, one phase per folder:
/// <list type="number">
/// <item>load: read the module and its portable PDB (Emit/ModuleIO.cs);</item>
/// <item>declare: for every runtime-async method, its async2 variant and continuation class, so
/// that bodies can call each other's variants (Rewrite/VariantMap.cs);</item>
/// <item>rewrite each method: analyse, normalize awaits, capture live state, emit suspension and
/// resumption, turn the original into a Task thunk (Rewrite/MethodRewriter.cs); awaited calls into
/// other rewritten assemblies go through bridges (Rewrite/ForeignCalls.cs);</item>
/// <item>mark: the cross-assembly contract callers in other assemblies rely on (Rewrite/CrossAssemblyContract.cs);</item>
/// <item>emit: write the assembly (signed again with the input's key pair when one is given), its PDB and Async2.Runtime.dll atomically (Emit/ModuleIO.cs).</item>
/// </list>
/// Match or bail: if any method cannot be rewritten, nothing is written and every problem is reported,
/// an exception the rewriter did not expect too (ASYNC2900, for the method or the step it met it in).
/// Cecil decodes lazily, so damage it finds in any phase stops the rewrite as a damaged input (ASYNC2001, Emit/DamagedInput.cs).
/// </summary>
public static class AssemblyRewriter
{
    public static RewriteReport Rewrite(RewriteRequest request)
    {
        var input = Path.GetFullPath(request.InputPath);
        var output = Path.GetFullPath(request.OutputPath);
        OutputPath.Check(input, output, request.CopyRuntime);

        var strongNameKey = request.StrongNameKeyFile is { Length: > 0 } keyFile ? ModuleIO.ReadStrongNameKey(keyFile) : null;
        using var loaded = ModuleIO.Load(input, request.ReferencePaths);
        try
        {
            return Rewrite(loaded, request, input, output, strongNameKey);
        }
        catch (Exception e) when (DamagedInput.IsReadFailure(e))
        {
            throw DamagedInput.Problem(input, e);
        }
    }

    private static RewriteReport Rewrite(LoadedModule loaded, RewriteRequest request, string input, string output, byte[]? strongNameKey)
    {
        var cancellation = request.Cancellation;
        cancellation.ThrowIfCancellationRequested();
        var module = loaded.Module;
        var candidates = module.GetTypes()
            .SelectMany(t => t.Methods)
            .Where(m => m.HasBody && ((int)m.ImplAttributes & RuntimeNames.AsyncImplFlag) != 0)
            .ToList();
        if (candidates.Count == 0)
        {
            if (OtherAsync2Versions.OfInput(module) is { } rewrittenByAnother)
                throw new RewriteException([rewrittenByAnother]);
            return new RewriteReport
            {
                InputPath = input, OutputPath = output, HasRuntimeAsyncMethods = false, Written = false, Methods = [],
                ClassicMethods = StateMachines.Classic(module), AlreadyRewritten = CrossAssemblyContract.RewrittenUnder(module) is not null,
            };
        }

        var classic = StateMachines.Classic(module);
        var diagnostics = OtherAsync2Versions.AmongReferences(module).ToList();
        var runtime = new RuntimeReferences(module, loaded.Runtime);
        var foreign = new ForeignCalls(module, runtime);
        var variants = new VariantMap(foreign, dispatchesThroughEntries: !VirtualEntries.ProxiesMayOverrideEntries(module),
            ambiguousSlots: VirtualEntries.AmbiguousSlots(module));
        int ordinal = 0;
        foreach (var method in candidates)
        {
            var shape = TaskShape.Of(method);
            var problem = UnsupportedShape(method, shape);
            if (problem is not null)
                diagnostics.Add(Diagnostics.At(method, null, DiagnosticCodes.UnsupportedMethodShape, problem));
            else
                ReportingInternalErrors(module, method, diagnostics, () => variants.Add(VariantMap.Declare(method, shape!, runtime, ordinal++)));
        }

        IReadOnlySet<MethodDefinition> recursive = new HashSet<MethodDefinition>();
        ReportingInternalErrors(module, null, diagnostics, () =>
        {
            if (variants.DispatchesThroughEntries)
            {
                VirtualEntries.Add(variants, runtime);
                InterfaceEntries.Add(variants, runtime);
            }
            recursive = Recursion.Find(variants.All.Select(d => d.Original).ToList(), variants.CallTarget);
        });

        var outcomes = variants.All.ToList()
            .Select(declaration => ReportingInternalErrors(module, declaration.Original, diagnostics, () =>
            {
                cancellation.ThrowIfCancellationRequested();
                return MethodRewriter.Rewrite(declaration, variants, recursive.Contains(declaration.Original), runtime, diagnostics);
            }))
            .OfType<MethodOutcome>() // a null is a method that failed, reported in diagnostics
            .ToList();
        if (diagnostics.Count == 0)
            ReportingInternalErrors(module, null, diagnostics, () =>
            {
                CrossAssemblyContract.Mark(module, loaded.Runtime);
                ModuleIO.Write(loaded, output, request.CopyRuntime, strongNameKey, request.StrongNameKeyFile, cancellation);
            });
        if (diagnostics.Count > 0)
            throw new RewriteException(diagnostics);

        return new RewriteReport
        {
            InputPath = input, OutputPath = output, HasRuntimeAsyncMethods = true, Written = true, Methods = outcomes,
            ClassicMethods = classic, CrossAssemblyCallees = foreign.Callees,
            SignatureDropped = strongNameKey is null && AssemblyFile.HasStrongNameSignature(input),
            InstrumentedForCoverage = CoverageInstrumentation.IsPresent(module),
        };
    }

    /// <summary>
    /// Runs one step of the rewrite of <paramref name="method"/> (of the whole assembly when null),
    /// turning an exception the rewriter did not expect into an ASYNC2900 diagnostic, so that every
    /// such method is named and nothing is written. Damage Cecil finds goes on to <see cref="Rewrite(RewriteRequest)"/>: one message for the file.
    /// </summary>
    private static T? ReportingInternalErrors<T>(ModuleDefinition module, MethodDefinition? method, List<Diagnostic> diagnostics, Func<T> step)
    {
        try
        {
            return step();
        }
        catch (Exception e) when (e is not (RewriteException or OperationCanceledException) && !DamagedInput.IsReadFailure(e))
        {
            diagnostics.Add(Diagnostics.InternalError(module, method, e));
            return default;
        }
    }

    private static void ReportingInternalErrors(ModuleDefinition module, MethodDefinition? method, List<Diagnostic> diagnostics, Action step) =>
        ReportingInternalErrors<object?>(module, method, diagnostics, () => { step(); return null; });

    /// <summary>Why a method is not (yet) in the shapes the transform handles, or null if it is.</summary>
    private static string? UnsupportedShape(MethodDefinition method, TaskShape? shape)
    {
        if (shape is null)
            return $"returns {method.ReturnType.FullName}; runtime-async methods must return Task, Task<T>, ValueTask or ValueTask<T>.";
        // The continuation class re-declares the owner's generic parameters, which relies on the
        // owner repeating its enclosing types' parameters, as C# always does.
        for (var type = method.DeclaringType; type.DeclaringType is not null; type = type.DeclaringType)
            if (type.GenericParameters.Count < type.DeclaringType.GenericParameters.Count)
                return $"{type.FullName} does not repeat the generic parameters of {type.DeclaringType.FullName}, as C# compilers do.";
        return null;
    }
}
