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
    /// <param name="constructorCallsDefine">
    /// Whether <c>ldloca x; args; call T::.ctor</c> (<c>x = new T(args)</c>) counts as a definition of
    /// x rather than a use: right, but only recognized when the constructor call follows in the same
    /// straight run of instructions. The captures use the plain form; the ref struct check (which
    /// must not report a local that is assigned anew after an await) uses this one.
    /// </param>
    public static Liveness Compute(MethodBody body, bool constructorCallsDefine = false)
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
                case Code.Ldloca when constructorCallsDefine && IsConstructedInPlace(instruction):
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
            successors[i] = Successors(instructions, i, regions);

        var handlersOf = new List<int>[count];
        for (int i = 0; i < count; i++)
            handlersOf[i] = regions.Regions.Where(r => r.TryContains(i)).Select(r => r.ExceptionEntry).ToList();

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

    private static List<int> Successors(Mono.Collections.Generic.Collection<Instruction> instructions, int i, ProtectedRegions regions)
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
    /// Whether the address <paramref name="load"/> pushes is the <c>this</c> of a constructor call of
    /// the local's own type, with only the constructor's arguments pushed in between and no branch or
    /// branch target on the way (a simple count of each instruction's pushes and pops).
    /// </summary>
    private static bool IsConstructedInPlace(Instruction load)
    {
        var local = (VariableDefinition)load.Operand;
        int above = 0;
        for (var next = load.Next; next is not null; next = next.Next)
        {
            if (next.OpCode.Code == Code.Call && next.Operand is MethodReference { Name: ".ctor", HasThis: true } constructor)
            {
                if (above == constructor.Parameters.Count)
                    return constructor.DeclaringType.FullName == local.VariableType.FullName;
            }
            if (next.OpCode.FlowControl is not (FlowControl.Next or FlowControl.Call) || next.OpCode.Code is Code.Ldloca && next.Operand == local)
                return false;
            int? effect = StackEffect(next);
            if (effect is null)
                return false;
            above += effect.Value;
            if (above < 0)
                return false;
        }
        return false;
    }

    /// <summary>Pushes minus pops of a straight-line instruction; null where that takes more than its opcode to know.</summary>
    private static int? StackEffect(Instruction instruction)
    {
        if (instruction.Operand is MethodReference method && instruction.OpCode.Code is Code.Call or Code.Callvirt or Code.Newobj)
        {
            bool constructs = instruction.OpCode.Code == Code.Newobj;
            int pops = method.Parameters.Count + (method.HasThis && !constructs ? 1 : 0);
            int pushes = constructs || method.ReturnType.MetadataType != MetadataType.Void ? 1 : 0;
            return pushes - pops;
        }
        int popped = instruction.OpCode.StackBehaviourPop switch
        {
            StackBehaviour.Pop0 => 0,
            StackBehaviour.Pop1 or StackBehaviour.Popi or StackBehaviour.Popref => 1,
            StackBehaviour.Pop1_pop1 or StackBehaviour.Popi_pop1 or StackBehaviour.Popi_popi or StackBehaviour.Popi_popi8
                or StackBehaviour.Popi_popr4 or StackBehaviour.Popi_popr8 or StackBehaviour.Popref_pop1 or StackBehaviour.Popref_popi => 2,
            StackBehaviour.Popi_popi_popi or StackBehaviour.Popref_popi_popi or StackBehaviour.Popref_popi_popi8
                or StackBehaviour.Popref_popi_popr4 or StackBehaviour.Popref_popi_popr8 or StackBehaviour.Popref_popi_popref => 3,
            _ => -1,
        };
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
