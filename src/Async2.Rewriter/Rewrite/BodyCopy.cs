using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// A copy of one method body in another method with the same parameters (or a prefix of them):
/// instructions, locals, exception handlers, sequence points and local names. The variant's
/// normalized body is copied into its fresh-call variant this way, before either gets its
/// suspension code; <see cref="Map(Instruction)"/> and <see cref="Map(object)"/> say what became
/// of an instruction or variable of the source, so that the awaits found in it can be followed.
/// </summary>
internal sealed class BodyCopy
{
    private readonly Dictionary<Instruction, Instruction> _instructions = new();
    private readonly Dictionary<VariableDefinition, VariableDefinition> _locals = new();
    private readonly MethodDefinition _from;
    private readonly MethodDefinition _to;

    private BodyCopy(MethodDefinition from, MethodDefinition to) => (_from, _to) = (from, to);

    public Instruction Map(Instruction instruction) => _instructions[instruction];

    public VariableDefinition Map(VariableDefinition local) => _locals[local];

    /// <summary>A local or parameter of the source as the copy has it.</summary>
    public object Map(object variable) => variable switch
    {
        VariableDefinition local => _locals[local],
        ParameterDefinition parameter => Map(parameter),
        _ => throw new ArgumentException("not a variable", nameof(variable)),
    };

    public ParameterDefinition Map(ParameterDefinition parameter) =>
        parameter.Index < _to.Parameters.Count
            ? _to.Parameters[parameter.Index]
            : throw new InvalidOperationException($"{_from.FullName} uses its parameter {parameter.Name}, which {_to.Name}'s copy does not have.");

    /// <summary>Copies <paramref name="from"/>'s body into the empty body of <paramref name="to"/>.</summary>
    public static BodyCopy Make(MethodDefinition from, MethodDefinition to)
    {
        var copy = new BodyCopy(from, to);
        var source = from.Body;
        var target = to.Body;
        target.InitLocals = source.InitLocals;
        foreach (var local in source.Variables)
        {
            var mapped = new VariableDefinition(local.VariableType);
            target.Variables.Add(mapped);
            copy._locals.Add(local, mapped);
        }
        foreach (var instruction in source.Instructions)
        {
            var mapped = Instruction.Create(OpCodes.Nop);
            mapped.OpCode = instruction.OpCode;
            copy._instructions.Add(instruction, mapped);
            target.Instructions.Add(mapped);
        }
        foreach (var instruction in source.Instructions)
            copy._instructions[instruction].Operand = instruction.Operand switch
            {
                Instruction branch => copy.Map(branch),
                Instruction[] table => table.Select(copy.Map).ToArray(),
                VariableDefinition local => copy.Map(local),
                ParameterDefinition parameter => copy.Map(parameter),
                var other => other,
            };
        foreach (var handler in source.ExceptionHandlers)
            target.ExceptionHandlers.Add(new ExceptionHandler(handler.HandlerType)
            {
                TryStart = copy.MapOrEnd(handler.TryStart),
                TryEnd = copy.MapOrEnd(handler.TryEnd),
                FilterStart = copy.MapOrEnd(handler.FilterStart),
                HandlerStart = copy.MapOrEnd(handler.HandlerStart),
                HandlerEnd = copy.MapOrEnd(handler.HandlerEnd),
                CatchType = handler.CatchType,
            });
        copy.CopyDebugInformation();
        return copy;
    }

    private Instruction? MapOrEnd(Instruction? instruction) => instruction is null ? null : Map(instruction);

    /// <summary>
    /// Sequence points, so the copy's frames show their lines in stack traces, and the names of its
    /// locals for debuggers, gathered into one scope over the whole copy: a scope names its bounds
    /// by IL offset, which a body under rewriting does not have yet.
    /// </summary>
    private void CopyDebugInformation()
    {
        var debug = _from.DebugInformation;
        if (!debug.HasSequencePoints && debug.Scope is null)
            return;
        BodyEditing.NumberOffsets(_from.Body);
        var byOffset = _from.Body.Instructions.ToDictionary(instruction => instruction.Offset);
        var points = _to.DebugInformation.SequencePoints;
        foreach (var point in debug.SequencePoints)
            if (byOffset.TryGetValue(point.Offset, out var at))
                points.Add(BodyEditing.CopySequencePoint(point, Map(at)));

        if (debug.Scope is not { } root || _to.Body.Instructions.Count == 0)
            return;
        var scope = new ScopeDebugInformation(_to.Body.Instructions[0], null) { Import = root.Import };
        foreach (var variable in Flatten(root).SelectMany(s => s.Variables))
            if (_from.Body.Variables.Count > variable.Index)
                scope.Variables.Add(new VariableDebugInformation(_locals[_from.Body.Variables[variable.Index]], variable.Name));
        foreach (var constant in Flatten(root).SelectMany(s => s.Constants))
            scope.Constants.Add(constant);
        _to.DebugInformation.Scope = scope;
    }

    private static IEnumerable<ScopeDebugInformation> Flatten(ScopeDebugInformation scope) =>
        scope.Scopes.SelectMany(Flatten).Prepend(scope);
}
