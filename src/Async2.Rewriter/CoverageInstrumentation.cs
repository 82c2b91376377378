using Mono.Cecil;

namespace Async2.Rewriter;

/// <summary>
/// Roslyn's coverage instrumentation (<c>/instrument:TestCoverage</c>, the csc option behind
/// MSBuild's <c>Instrument</c> property) has every method record what ran in a payload it finds
/// by the method's MethodDef row number, written into the IL as a plain number (a token would be
/// renumbered by the rewrite; a number is not), and the span data beside it is keyed the same way.
/// The rewrite adds types and methods, which moves the rows after them, so a coverage tool that
/// reads those numbers as rows of the rewritten assembly files what ran under other methods. The
/// program itself runs as compiled. Async2.Build builds an instrumented project as classic async
/// (build/Async2.Build.targets); a rewrite of one warns (ASYNC2010).
/// </summary>
public static class CoverageInstrumentation
{
    /// <summary>Whether <paramref name="module"/> holds the payload roots the instrumentation adds.</summary>
    internal static bool IsPresent(ModuleDefinition module) =>
        module.GetType("<PrivateImplementationDetails>") is { } details
        && details.Fields.Any(field => field.Name.StartsWith("PayloadRoot", StringComparison.Ordinal));

    /// <summary>The warning a rewrite of such an input gives, without its code.</summary>
    public static string Warning(string input) =>
        $"{input} is instrumented for test coverage (/instrument:TestCoverage, MSBuild's Instrument), which names each method by its row number in the assembly, and the rewrite adds methods that move those rows: a coverage tool may file what ran under other methods. "
        + "The program runs as compiled. Measure coverage on a classic build (Async2.Build builds an instrumented project as classic async), or instrument the rewritten assembly instead.";
}
