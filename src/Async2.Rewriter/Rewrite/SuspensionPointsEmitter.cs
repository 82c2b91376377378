using Async2.Rewriter.Analysis;
using Mono.Cecil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Records on M's continuation class where each of its suspension points is in the source, for
/// <c>Async2.Runtime.AsyncStackTrace</c>, which names the line a suspended caller waits at:
/// <code>
/// [SuspensionPoints("Program.cs", new[] { 12, 15 })]   // state 1 awaits on line 12, state 2 on line 15
/// sealed class &lt;M&gt;d__Async2_0 : Continuation&lt;int&gt; { ... }
/// </code>
/// Only where the input has a PDB; the stack guard's state (not in the source) gets the method's first line.
/// </summary>
internal static class SuspensionPointsEmitter
{
    /// <param name="start">The method's first line (taken before its body moved into the variant).</param>
    public static void Emit(VariantDeclaration declaration, IReadOnlyList<NormalizedAwait> awaits,
        IReadOnlyDictionary<AwaitSite, AwaitReport.Origin> origins, SourceLocation? start, RuntimeReferences runtime)
    {
        if (start is not { } first || awaits.Count == 0)
            return;
        var lines = new int[awaits.Max(a => a.State)];
        foreach (var point in awaits)
            lines[point.State - 1] = origins.GetValueOrDefault(point.Site)?.Source?.Line ?? first.Line;

        var module = declaration.Continuation.Module;
        var int32 = module.TypeSystem.Int32;
        var attribute = new CustomAttribute(runtime.SuspensionPointsConstructor);
        attribute.ConstructorArguments.Add(new CustomAttributeArgument(module.TypeSystem.String, first.File));
        attribute.ConstructorArguments.Add(new CustomAttributeArgument(new ArrayType(int32),
            lines.Select(line => new CustomAttributeArgument(int32, line)).ToArray()));
        declaration.Continuation.CustomAttributes.Add(attribute);
    }
}
