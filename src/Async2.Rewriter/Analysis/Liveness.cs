using System.Collections;
using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Analysis;

/// <summary>
/// Backward liveness of locals and arguments over a method body, per instruction, with exception
/// flow: a variable live at the entry of a handler (or filter) is live throughout its try, since
/// an exception may leave the try at any instruction. <c>ldloca</c>/<c>ldarga</c> count as uses
/// (the address may be read through), never as definitions, which errs on the side of capturing;
/// the one exception is <c>ldloca; initobj</c>, a plain zeroing.
/// Variables are numbered locals first, then parameters by <see cref="ParameterReference.Index"/>
/// with <c>this</c> last.
/// Expects a body with macros simplified (every local and argument access has an operand).
/// </summary>
internal sealed class Liveness
{
    private readonly BitArray[] _liveIn;
    private readonly IReadOnlyDictionary<Instruction, int> _indexOf;

    private Liveness(BitArray[] liveIn, IReadOnlyDictionary<Instruction, int> indexOf, int localCount, int parameterCount)
    {
        _liveIn = liveIn;
        _indexOf = indexOf;
        LocalCount = localCount;
        ParameterCount = parameterCount;
    }

    public int LocalCount { get; }

    public int ParameterCount { get; }

    /// <summary>Variable numbers live on entry to <paramref name="instruction"/>.</summary>
    public IReadOnlyList<int> LiveBefore(Instruction instruction)
    {
        var live = _liveIn[_indexOf[instruction]];
        var result = new List<int>();
        for (int v = 0; v < live.Length; v++)
            if (live[v])
                result.Add(v);
        return result;
    }

    /// <param name="body">The method body.</param>
    /// <param name="valuesKeptOnly">
    /// The narrower form that decides whether a value that no continuation can hold (a ref struct,
    /// a managed pointer) is really needed after an await, where a wrong "yes" would refuse valid
    /// code: an address passed as an <c>out</c> argument, as a constructor's <c>this</c>, or to a
    /// field store counts as an assignment, not a use (<see cref="AssignsThroughAddress"/>); and only normal
    /// flow counts (no exception edges, no finally running on towards every exit of its try), since
    /// classic C# keeps no such value across an await on any path, which is what is checked.
    /// The captures use the plain form, which errs on the side of keeping.
    /// </param>
    public static Liveness Compute(MethodBody body, bool valuesKeptOnly = false)
    {
        var instructions = body.Instructions;
        var regions = ProtectedRegions.Compute(body);
        int locals = body.Variables.Count;
        int parameters = body.Method.Parameters.Count + (body.Method.HasThis ? 1 : 0);
        int width = locals + parameters;
        int count = instructions.Count;

        int VariableOf(object operand) => operand switch
        {
            VariableDefinition local => local.Index,
            ParameterDefinition p when p == body.ThisParameter => locals + body.Method.Parameters.Count,
            ParameterDefinition p => locals + p.Index,
            _ => throw new InvalidOperationException("unexpected operand"),
        };

        var uses = new int[count];
        var defs = new int[count];
        for (int i = 0; i < count; i++)
        {
            uses[i] = defs[i] = -1;
            var instruction = instructions[i];
            switch (instruction.OpCode.Code)
            {
                case Code.Ldloca when instruction.Next?.OpCode.Code == Code.Initobj:
                    // `ldloca x; initobj T` is `x = default`: a definition, not a use.
                    defs[i] = VariableOf(instruction.Operand);
                    break;
                case Code.Ldloca when valuesKeptOnly && AssignsThroughAddress(instruction):
                    defs[i] = VariableOf(instruction.Operand);
                    break;
                case Code.Ldloc: case Code.Ldloca: case Code.Ldarg: case Code.Ldarga:
                    uses[i] = VariableOf(instruction.Operand);
                    break;
                case Code.Stloc: case Code.Starg:
                    defs[i] = VariableOf(instruction.Operand);
                    break;
            }
        }

        var successors = new List<int>[count];
        for (int i = 0; i < count; i++)
            successors[i] = Successors(instructions, i, regions, normalFlowOnly: valuesKeptOnly);

        var handlersOf = new List<int>[count];
        for (int i = 0; i < count; i++)
            handlersOf[i] = valuesKeptOnly ? [] : regions.Regions.Where(r => r.TryContains(i)).Select(r => r.ExceptionEntry).ToList();

        var liveIn = new BitArray[count];
        for (int i = 0; i < count; i++)
            liveIn[i] = new BitArray(width);

        bool changed = true;
        var scratch = new BitArray(width);
        while (changed)
        {
            changed = false;
            for (int i = count - 1; i >= 0; i--)
            {
                scratch.SetAll(false);
                foreach (int s in successors[i])
                    scratch.Or(liveIn[s]);
                if (defs[i] >= 0)
                    scratch[defs[i]] = false;
                if (uses[i] >= 0)
                    scratch[uses[i]] = true;
                foreach (int h in handlersOf[i])
                    scratch.Or(liveIn[h]);
                if (!SameBits(scratch, liveIn[i]))
                {
                    liveIn[i] = (BitArray)scratch.Clone();
                    changed = true;
                }
            }
        }

        return new Liveness(liveIn, regions.IndexOf, locals, parameters);
    }

    private static List<int> Successors(Mono.Collections.Generic.Collection<Instruction> instructions, int i, ProtectedRegions regions, bool normalFlowOnly)
    {
        var instruction = instructions[i];
        var result = new List<int>();
        var indexOf = regions.IndexOf;
        switch (instruction.Operand)
        {
            case Instruction target:
                result.Add(indexOf[target]);
                break;
            case Instruction[] targets:
                result.AddRange(targets.Select(t => indexOf[t]));
                break;
        }

        switch (instruction.OpCode.Code)
        {
            case Code.Leave when normalFlowOnly && instruction.Operand is Instruction exit:
                // The finally blocks a leave runs on its way out, then its target (the edge above);
                // the end of a finally does not lead on to every exit of its try.
                foreach (var region in regions.Regions.Where(r => r.RunsOnLeave && r.TryContains(i) && !r.TryContains(indexOf[exit])))
                    result.Add(region.HandlerStart);
                break;
            case Code.Endfinally when normalFlowOnly:
                break;
            case Code.Endfinally:
                // A finally or fault continues wherever the leaves out of its try were going.
                foreach (var region in regions.Regions.Where(r => r.RunsOnLeave && r.HandlerContains(i)))
                    for (int j = region.TryStart; j < region.TryEnd; j++)
                        if (instructions[j].OpCode.Code == Code.Leave && instructions[j].Operand is Instruction exit)
                            result.Add(indexOf[exit]);
                break;
            case Code.Endfilter:
                foreach (var region in regions.Regions.Where(r => r.FilterStart >= 0 && i >= r.FilterStart && i < r.HandlerStart))
                    result.Add(region.HandlerStart);
                break;
        }

        var flow = instruction.OpCode.FlowControl;
        if (flow is FlowControl.Next or FlowControl.Call or FlowControl.Cond_Branch or FlowControl.Meta or FlowControl.Break
            && i + 1 < instructions.Count)
            result.Add(i + 1);
        return result;
    }

    /// <summary>
    /// Whether the instruction that takes the address <paramref name="load"/> pushes assigns the
    /// local through it (an <c>out</c> argument, a constructor's <c>this</c>, <c>initobj</c>, a field
    /// store); false when it may read it, or when it is not followed to its end. Follows one path:
    /// the fall-through at a conditional branch (whose target, later in the arguments, sees the same
    /// stack), the target of a forward <c>br</c>, as Roslyn lays out <c>new Span&lt;T&gt;(a ?? b)</c>
    /// or <c>F(c ? x : y, out s)</c>.
    /// </summary>
    private static bool AssignsThroughAddress(Instruction load)
    {
        int above = 0;
        for (var next = load.Next; next is not null; next = next.Next)
        {
            switch (next.OpCode.Code)
            {
                case Code.Initobj when above == 0:
                case Code.Stfld when above == 1:
                    return true;
                case Code.Br when next.Operand is Instruction target && target.Offset > next.Offset:
                    next = target.Previous;
                    continue;
            }
            if (CallPops(next) is { } pops)
            {
                if (above < pops)
                {
                    // The address is the argument `above` places below the top; -1 is the call's this.
                    var method = (MethodReference)next.Operand;
                    int argument = method.Parameters.Count - 1 - above;
                    return argument < 0 ? method.Name == ".ctor" : IsOut(method, argument);
                }
            }
            else if (next.OpCode.FlowControl is not (FlowControl.Next or FlowControl.Meta or FlowControl.Cond_Branch)
                || Pops(next) is not { } popped || popped > above)
                return false; // taken by an instruction that may read it (ldfld, ldflda, ldobj...), or lost track
            int? effect = StackEffect(next);
            if (effect is null)
                return false;
            above += effect.Value;
        }
        return false;
    }

    /// <summary>How many values a call, callvirt or newobj pops (its arguments, and its this but for newobj); null for any other instruction.</summary>
    private static int? CallPops(Instruction instruction) =>
        instruction.Operand is MethodReference method && instruction.OpCode.Code is Code.Call or Code.Callvirt or Code.Newobj
            ? method.Parameters.Count + (method.HasThis && instruction.OpCode.Code != Code.Newobj ? 1 : 0)
            : null;

    /// <summary>Whether a parameter is <c>out</c>, which only the definition says (a reference's signature has a byref only).</summary>
    private static bool IsOut(MethodReference method, int parameter)
    {
        try
        {
            return (method as MethodDefinition ?? method.Resolve())?.Parameters[parameter].IsOut == true;
        }
        catch (AssemblyResolutionException)
        {
            return false;
        }
    }

    /// <summary>How many values a non-call instruction pops; null where that takes more than its opcode to know.</summary>
    private static int? Pops(Instruction instruction) => instruction.OpCode.StackBehaviourPop switch
    {
        StackBehaviour.Pop0 => 0,
        StackBehaviour.Pop1 or StackBehaviour.Popi or StackBehaviour.Popref => 1,
        StackBehaviour.Pop1_pop1 or StackBehaviour.Popi_pop1 or StackBehaviour.Popi_popi or StackBehaviour.Popi_popi8
            or StackBehaviour.Popi_popr4 or StackBehaviour.Popi_popr8 or StackBehaviour.Popref_pop1 or StackBehaviour.Popref_popi => 2,
        StackBehaviour.Popi_popi_popi or StackBehaviour.Popref_popi_popi or StackBehaviour.Popref_popi_popi8
            or StackBehaviour.Popref_popi_popr4 or StackBehaviour.Popref_popi_popr8 or StackBehaviour.Popref_popi_popref => 3,
        _ => null,
    };

    /// <summary>Pushes minus pops of a straight-line instruction; null where that takes more than its opcode to know.</summary>
    private static int? StackEffect(Instruction instruction)
    {
        if (CallPops(instruction) is { } pops)
        {
            var method = (MethodReference)instruction.Operand;
            return (instruction.OpCode.Code == Code.Newobj || method.ReturnType.MetadataType != MetadataType.Void ? 1 : 0) - pops;
        }
        int popped = Pops(instruction) ?? -1;
        int pushed = instruction.OpCode.StackBehaviourPush switch
        {
            StackBehaviour.Push0 => 0,
            StackBehaviour.Push1 or StackBehaviour.Pushi or StackBehaviour.Pushi8 or StackBehaviour.Pushr4
                or StackBehaviour.Pushr8 or StackBehaviour.Pushref => 1,
            StackBehaviour.Push1_push1 => 2,
            _ => -1,
        };
        return popped < 0 || pushed < 0 ? null : pushed - popped;
    }

    private static bool SameBits(BitArray a, BitArray b)
    {
        for (int i = 0; i < a.Length; i++)
            if (a[i] != b[i])
                return false;
        return true;
    }
}
