using Mono.Cecil.Cil;

namespace Async2.Rewriter.Analysis;

/// <summary>One exception-handling clause with its instruction ranges as list indexes ([start, end)).</summary>
internal sealed record ProtectedRegion(ExceptionHandler Handler, int TryStart, int TryEnd, int HandlerStart, int HandlerEnd, int FilterStart)
{
    public bool TryContains(int index) => index >= TryStart && index < TryEnd;

    public bool HandlerContains(int index) =>
        (index >= HandlerStart && index < HandlerEnd) || (FilterStart >= 0 && index >= FilterStart && index < HandlerStart);

    /// <summary>Where control goes when an exception leaves the try: the filter if any, else the handler.</summary>
    public int ExceptionEntry => FilterStart >= 0 ? FilterStart : HandlerStart;

    /// <summary>Finally and fault handlers run when the try is left; a suspension must not run them.</summary>
    public bool RunsOnLeave => Handler.HandlerType is ExceptionHandlerType.Finally or ExceptionHandlerType.Fault;
}

/// <summary>
/// A snapshot of a body's exception-handling regions in terms of instruction indexes, so that the
/// analyses can ask "which trys enclose this instruction" without walking instruction links.
/// </summary>
internal sealed class ProtectedRegions
{
    private ProtectedRegions(IReadOnlyList<ProtectedRegion> regions, IReadOnlyDictionary<Instruction, int> indexOf)
    {
        Regions = regions;
        IndexOf = indexOf;
    }

    public IReadOnlyList<ProtectedRegion> Regions { get; }

    public IReadOnlyDictionary<Instruction, int> IndexOf { get; }

    public static ProtectedRegions Compute(MethodBody body)
    {
        var indexOf = new Dictionary<Instruction, int>(body.Instructions.Count);
        for (int i = 0; i < body.Instructions.Count; i++)
            indexOf[body.Instructions[i]] = i;
        int end = body.Instructions.Count;
        int At(Instruction? instruction) => instruction is null ? end : indexOf[instruction];

        var regions = body.ExceptionHandlers
            .Select(h => new ProtectedRegion(h, At(h.TryStart), At(h.TryEnd), At(h.HandlerStart), At(h.HandlerEnd),
                h.HandlerType == ExceptionHandlerType.Filter ? At(h.FilterStart) : -1))
            .ToList();
        return new ProtectedRegions(regions, indexOf);
    }

    /// <summary>The regions whose try block contains <paramref name="index"/>, outermost first.</summary>
    public IReadOnlyList<ProtectedRegion> TrysEnclosing(int index) =>
        Regions.Where(r => r.TryContains(index))
            .OrderBy(r => r.TryStart).ThenByDescending(r => r.TryEnd)
            .ToList();

    /// <summary>The distinct try blocks (by range) enclosing <paramref name="index"/>, outermost first.</summary>
    public IReadOnlyList<(int Start, int End)> TryBlocksEnclosing(int index) =>
        TrysEnclosing(index).Select(r => (r.TryStart, r.TryEnd)).Distinct().ToList();
}
