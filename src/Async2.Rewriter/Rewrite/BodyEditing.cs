using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Editing verbs over a method body that keep branch targets, exception-handler boundaries and
/// sequence points valid. The trick throughout: an instruction object others refer to is never
/// removed; it is rewritten in place into the first instruction of its replacement.
/// </summary>
internal static class BodyEditing
{
    /// <summary>
    /// Turns <paramref name="at"/> into <paramref name="sequence"/>[0] and inserts the rest after it,
    /// so that branches and handlers that referred to <paramref name="at"/> now reach the sequence.
    /// No instruction of the sequence may branch to its first element.
    /// </summary>
    public static void ReplaceWith(MethodBody body, Instruction at, IReadOnlyList<Instruction> sequence)
    {
        at.OpCode = sequence[0].OpCode;
        at.Operand = sequence[0].Operand;
        InsertAfter(body, at, sequence.Skip(1));
    }

    public static void InsertAfter(MethodBody body, Instruction at, IEnumerable<Instruction> sequence)
    {
        int index = body.Instructions.IndexOf(at);
        foreach (var instruction in sequence)
            body.Instructions.Insert(++index, instruction);
    }

    /// <summary>
    /// Inserts a prologue (built by <paramref name="prologueBefore"/>, given the instruction that will
    /// hold the original code) so that it runs first whenever control reaches
    /// <paramref name="start"/>, and returns the instruction that now holds the original code.
    /// Everything that referred to <paramref name="start"/> now refers to the prologue, except
    /// what lies inside <paramref name="keepInside"/>: the regions nested there that began at
    /// <paramref name="start"/> and the branches from within them, which must not leave those regions.
    /// </summary>
    public static Instruction Prepend(MethodBody body, Instruction start,
        Func<Instruction, IReadOnlyList<Instruction>> prologueBefore, Func<ExceptionHandler, bool> keepInside)
    {
        var original = Instruction.Create(OpCodes.Nop);
        original.OpCode = start.OpCode;
        original.Operand = start.Operand;
        var prologue = prologueBefore(original);

        var nested = body.ExceptionHandlers.Where(h => h.TryStart == start && keepInside(h)).ToList();
        var inside = new HashSet<Instruction>();
        foreach (var handler in nested)
            for (var i = handler.TryStart; i != handler.TryEnd && i is not null; i = i.Next)
                inside.Add(i);

        ReplaceWith(body, start, [.. prologue, original]);
        foreach (var handler in nested)
            handler.TryStart = original;
        inside.Add(original);
        foreach (var source in inside)
            Retarget(source, start, original);
        return original;
    }

    /// <summary>
    /// Numbers the body's instructions by IL offset as it stands. A sequence point names its
    /// instruction only through its offset, which edits leave stale.
    /// </summary>
    public static void NumberOffsets(MethodBody body)
    {
        int offset = 0;
        foreach (var instruction in body.Instructions)
        {
            instruction.Offset = offset;
            offset += instruction.GetSize();
        }
    }

    /// <summary><paramref name="point"/>'s document and span, on <paramref name="at"/>.</summary>
    public static SequencePoint CopySequencePoint(SequencePoint point, Instruction at) => new(at, point.Document)
    {
        StartLine = point.StartLine,
        StartColumn = point.StartColumn,
        EndLine = point.EndLine,
        EndColumn = point.EndColumn,
    };

    /// <summary>
    /// The statement in effect at each of <paramref name="instructions"/> (the last visible sequence
    /// point at or before it), or none, and the instructions that carry a sequence point; taken
    /// before code is added around them.
    /// </summary>
    public static (Dictionary<Instruction, SequencePoint?> Statements, HashSet<Instruction> Marked) StatementsAt(MethodDefinition method, IEnumerable<Instruction> instructions)
    {
        NumberOffsets(method.Body);
        var byOffset = method.Body.Instructions.ToDictionary(instruction => instruction.Offset);
        var points = method.DebugInformation.SequencePoints.OrderBy(point => point.Offset).ToList();
        var visible = points.Where(point => !point.IsHidden).ToList();
        return (instructions.Distinct().ToDictionary(instruction => instruction, instruction => visible.LastOrDefault(point => point.Offset <= instruction.Offset)),
            points.Select(point => byOffset.GetValueOrDefault(point.Offset)).OfType<Instruction>().ToHashSet());
    }

    /// <summary>
    /// Marks code the rewrite added inside a statement, from <paramref name="added"/> on, as no
    /// statement's (a hidden sequence point), and gives <paramref name="statementAgain"/>, where the
    /// statement's own code goes on, <paramref name="statement"/> back unless it starts one itself.
    /// Without it, that code took the statement's line: coverage tools counted a line run that did
    /// not run, and the JIT's throw blocks, placed after it, took its line in stack traces.
    /// </summary>
    public static void HideAddedCode(MethodDefinition method, Instruction added, Instruction statementAgain, SequencePoint? statement, HashSet<Instruction> marked)
    {
        if (statement is null)
            return;
        HideAddedCode(method, added);
        if (marked.Add(statementAgain))
            method.DebugInformation.SequencePoints.Add(CopySequencePoint(statement, statementAgain));
    }

    /// <summary>Marks code the rewrite added after every statement (an exit, a dispatch), from <paramref name="added"/> on, as no statement's.</summary>
    public static void HideAddedCode(MethodDefinition method, Instruction added)
    {
        var points = method.DebugInformation.SequencePoints;
        if (points.FirstOrDefault(point => !point.IsHidden) is { } any)
            points.Add(new SequencePoint(added, any.Document) { StartLine = HiddenLine, EndLine = HiddenLine });
    }

    /// <summary>Puts the sequence points back in IL order, which portable PDBs require, after points were added anywhere.</summary>
    public static void SortSequencePoints(MethodDefinition method)
    {
        NumberOffsets(method.Body);
        var points = method.DebugInformation.SequencePoints;
        var sorted = points.OrderBy(point => point.Offset).ToList();
        points.Clear();
        foreach (var point in sorted)
            points.Add(point);
    }

    private const int HiddenLine = 0xfeefee;

    /// <summary>Adds a brand-new first instruction sequence to the body, outside every region.</summary>
    public static void InsertAtEntry(MethodBody body, IReadOnlyList<Instruction> sequence)
    {
        for (int i = sequence.Count - 1; i >= 0; i--)
            body.Instructions.Insert(0, sequence[i]);
    }

    /// <summary>Appends code after every region: regions that ran to the end of the body keep their extent.</summary>
    public static void Append(MethodBody body, IReadOnlyList<Instruction> sequence)
    {
        var first = sequence[0];
        foreach (var handler in body.ExceptionHandlers)
        {
            handler.TryEnd ??= first;
            handler.HandlerEnd ??= first;
        }
        foreach (var instruction in sequence)
            body.Instructions.Add(instruction);
    }

    private static void Retarget(Instruction source, Instruction from, Instruction to)
    {
        if (source.Operand == from)
            source.Operand = to;
        else if (source.Operand is Instruction[] targets)
            for (int i = 0; i < targets.Length; i++)
                if (targets[i] == from)
                    targets[i] = to;
    }
}
