using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Gives each throw and rethrow in a program's own catch handlers a way out of the handler for when
/// the stack runs low, as <see cref="RethrowingHandler"/> gives the rewriter's handlers. A callee that
/// threw synchronously is still on the stack under the handler, so a throw there starts the next
/// dispatch above the one still running: a synchronous descent with <c>catch { ...; throw; }</c> at
/// every level takes stack for each level, where classic async's caller throws again from its own
/// frame, the callee's gone.
/// <code>
/// handler start:  dup; stloc caught                      (a handler with a rethrow)
/// rethrow      ⇒  ldloc caught; call RethrowsOutsideHandler; brtrue LEAVE; rethrow; LEAVE: leave AFTER
/// throw        ⇒  stloc thrown; ldloc thrown; call RethrowsOutsideHandler; brtrue LEAVE; ldloc thrown; throw; LEAVE: leave AFTER
/// AFTER, one per site, after the try's last handler and inside every region around the try:
///                 ldloc caught; call ThrowAgain (RethrowingHandler)   or   ldloc thrown; throw
/// </code>
/// A throw inside a try nested in the handler stays as it is: leaving first would run that try's
/// finally blocks before the filters further out, where the runtime's two passes run the filters first.
/// </summary>
internal static class HandlerThrowEmitter
{
    private sealed record Site(Instruction Throw, ExceptionHandler Clause);

    public static void Emit(MethodDefinition method, RuntimeReferences runtime)
    {
        var body = method.Body;
        var sites = ThrowsInHandlers(body);
        if (sites.Count == 0)
            return;
        var (statements, marked) = BodyEditing.StatementsAt(method, sites.Select(site => site.Throw));
        var points = method.DebugInformation.SequencePoints;
        var blocks = sites.GroupBy(site => (site.Clause.TryStart, site.Clause.TryEnd))
            .Select(group =>
            {
                var block = TryBlock.Of(group.First().Clause, body);
                return (Sites: group.ToList(), Block: block, PointAtEnd: PointAtOrBefore(method, block.End));
            })
            .ToList();

        var caught = new Dictionary<ExceptionHandler, VariableDefinition>();
        VariableDefinition? thrown = null;
        foreach (var (blockSites, block, pointAtEnd) in blocks)
        {
            var afterBlock = new List<Instruction>();
            foreach (var site in blockSites)
            {
                List<Instruction> after;
                List<Instruction> inHandler;
                if (site.Throw.OpCode.Code == Code.Rethrow)
                {
                    var exception = caught.TryGetValue(site.Clause, out var known) ? known : caught[site.Clause] = StoreCaught(method, site.Clause);
                    after = RethrowingHandler.ThrowAgain(exception, runtime);
                    inHandler = RethrowingHandler.RethrowOrLeave(exception, after[0], runtime);
                }
                else
                {
                    thrown ??= RethrowingHandler.NewObjectLocal(body);
                    after = [Instruction.Create(OpCodes.Ldloc, thrown), Instruction.Create(OpCodes.Throw)];
                    inHandler = RethrowingHandler.ThrowOrLeave(thrown, after[0], runtime);
                }
                BodyEditing.ReplaceWith(body, site.Throw, inHandler);
                // The frame's line in a trace, should it throw from there, is the throw's.
                if (statements[site.Throw] is { } statement)
                    points.Add(BodyEditing.CopySequencePoint(statement, after[0]));
                afterBlock.AddRange(after);
            }
            block.PlaceAfter(body, afterBlock);
            // The code after the block keeps the line it had, not the last throw's.
            if (block.End is { } end && pointAtEnd is not null && !marked.Contains(end))
                points.Add(BodyEditing.CopySequencePoint(pointAtEnd, end));
        }
        BodyEditing.SortSequencePoints(method);
    }

    /// <summary>
    /// The throws and rethrows whose innermost region is the handler of a catch or filter clause,
    /// not a try, filter or finally nested in it.
    /// </summary>
    private static List<Site> ThrowsInHandlers(MethodBody body)
    {
        if (!body.HasExceptionHandlers)
            return [];
        var regions = ProtectedRegions.Compute(body);
        var sites = new List<Site>();
        for (int i = 0; i < body.Instructions.Count; i++)
        {
            var instruction = body.Instructions[i];
            if (instruction.OpCode.Code is not (Code.Throw or Code.Rethrow))
                continue;
            if (InnermostRegionPart(regions, i) is { IsHandler: true } innermost
                && innermost.Region.Handler.HandlerType is ExceptionHandlerType.Catch or ExceptionHandlerType.Filter)
                sites.Add(new Site(instruction, innermost.Region.Handler));
        }
        return sites;
    }

    /// <summary>The smallest try, filter or handler holding the instruction at <paramref name="index"/>, if any.</summary>
    private static (ProtectedRegion Region, bool IsHandler)? InnermostRegionPart(ProtectedRegions regions, int index)
    {
        (ProtectedRegion Region, bool IsHandler)? innermost = null;
        int smallest = int.MaxValue;
        foreach (var region in regions.Regions)
        {
            (int Start, int End, bool IsHandler)[] parts =
            [
                (region.TryStart, region.TryEnd, false),
                (region.FilterStart, region.HandlerStart, false),
                (region.HandlerStart, region.HandlerEnd, true),
            ];
            foreach (var (start, end, isHandler) in parts)
                if (start >= 0 && start <= index && index < end && end - start < smallest)
                    (innermost, smallest) = ((region, isHandler), end - start);
        }
        return innermost;
    }

    /// <summary>
    /// <c>dup; stloc caught</c> first in the clause's handler, where the exception is on the stack:
    /// the handler, the try and the clause before now end there; no branch can reach a handler's start.
    /// </summary>
    private static VariableDefinition StoreCaught(MethodDefinition method, ExceptionHandler clause)
    {
        var body = method.Body;
        var caught = RethrowingHandler.NewObjectLocal(body);
        var start = clause.HandlerStart;
        Instruction[] store = [Instruction.Create(OpCodes.Dup), Instruction.Create(OpCodes.Stloc, caught)];
        int at = body.Instructions.IndexOf(start);
        body.Instructions.Insert(at, store[0]);
        body.Instructions.Insert(at + 1, store[1]);
        foreach (var handler in body.ExceptionHandlers)
        {
            if (handler.TryEnd == start)
                handler.TryEnd = store[0];
            if (handler.HandlerEnd == start)
                handler.HandlerEnd = store[0];
            if (handler.HandlerStart == start)
                handler.HandlerStart = store[0];
        }
        BodyEditing.HideAddedCode(method, store[0]);
        return caught;
    }

    private static SequencePoint? PointAtOrBefore(MethodDefinition method, Instruction? instruction)
    {
        if (instruction is null)
            return null;
        BodyEditing.NumberOffsets(method.Body);
        return method.DebugInformation.SequencePoints.Where(point => point.Offset <= instruction.Offset).MaxBy(point => point.Offset);
    }

    /// <summary>
    /// A try with all its catch and filter clauses: <see cref="End"/> is the instruction after its
    /// last handler (null at the end of the body), and <see cref="Inner"/> the clauses that end there
    /// and lie within the block (its own, and those nested in its last handler).
    /// </summary>
    private sealed record TryBlock(Instruction? End, IReadOnlyList<ExceptionHandler> Inner)
    {
        public static TryBlock Of(ExceptionHandler clause, MethodBody body)
        {
            var regions = ProtectedRegions.Compute(body);
            var own = regions.Regions.Where(r => r.Handler.TryStart == clause.TryStart && r.Handler.TryEnd == clause.TryEnd).ToList();
            var last = own.MaxBy(r => r.HandlerEnd)!;
            var end = last.Handler.HandlerEnd;
            var inner = regions.Regions
                .Where(r => (r.Handler.TryEnd == end || r.Handler.HandlerEnd == end)
                    && (own.Contains(r) || r.TryStart >= last.TryEnd))
                .Select(r => r.Handler)
                .ToList();
            return new TryBlock(end, inner);
        }

        /// <summary>Puts <paramref name="code"/> before <see cref="End"/>: outside the block, inside what encloses it.</summary>
        public void PlaceAfter(MethodBody body, IReadOnlyList<Instruction> code)
        {
            int at = End is null ? body.Instructions.Count : body.Instructions.IndexOf(End);
            for (int i = 0; i < code.Count; i++)
                body.Instructions.Insert(at + i, code[i]);
            foreach (var clause in Inner)
            {
                if (clause.TryEnd == End)
                    clause.TryEnd = code[0];
                if (clause.HandlerEnd == End)
                    clause.HandlerEnd = code[0];
            }
        }
    }
}
