using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Analysis;

/// <summary>
/// Types of the evaluation stack before every reachable instruction, bottom first.
/// Runtime-async IL keeps values on the stack across awaits (Roslyn leaves spilling to the
/// runtime), so the rewriter needs them typed to spill them into locals of the right type.
/// Where branches join, a slot holds whatever either branch left there, so its type is the join of
/// both (ECMA-335 III.1.8.1.3): <c>flag ? 300 : aByte</c> is an int32, not a byte, and
/// <c>cat ? new Cat() : new Dog()</c> their common base class, not the sealed Dog the JIT would
/// then devirtualize every call on.
/// Expects a body with macros simplified (no short forms).
/// </summary>
internal sealed class StackTypes
{
    private readonly Dictionary<Instruction, TypeReference[]> _before;

    private StackTypes(Dictionary<Instruction, TypeReference[]> before) => _before = before;

    /// <summary>Stands for the type of <c>ldnull</c>; spilled as <see cref="object"/>.</summary>
    public static readonly TypeReference NullType = new("", "<null>", null, null);

    public bool IsReachable(Instruction instruction) => _before.ContainsKey(instruction);

    public IReadOnlyList<TypeReference> Before(Instruction instruction) => _before[instruction];

    public static StackTypes Compute(MethodDefinition method)
    {
        var body = method.Body;
        var before = new Dictionary<Instruction, TypeReference[]>();
        var work = new Stack<Instruction>();

        void Flow(Instruction target, TypeReference[] stack)
        {
            if (!before.TryGetValue(target, out var known))
                before[target] = stack;
            else if (Join(method, known, stack, target) is { } joined)
                before[target] = joined;
            else
                return;
            work.Push(target);
        }

        if (body.Instructions.Count > 0)
            Flow(body.Instructions[0], []);
        foreach (var handler in body.ExceptionHandlers)
        {
            if (handler.HandlerType == ExceptionHandlerType.Catch)
                Flow(handler.HandlerStart, [handler.CatchType]);
            else if (handler.HandlerType == ExceptionHandlerType.Filter)
            {
                Flow(handler.FilterStart, [method.Module.TypeSystem.Object]);
                Flow(handler.HandlerStart, [method.Module.TypeSystem.Object]);
            }
            else
                Flow(handler.HandlerStart, []);
        }

        while (work.Count > 0)
        {
            var instruction = work.Pop();
            var stack = new List<TypeReference>(before[instruction]);
            try
            {
                Step(method, instruction, stack);
            }
            catch (ArgumentException)
            {
                throw new NotSupportedException($"stack underflow at IL_{instruction.Offset:x4} ({instruction.OpCode})");
            }
            var after = stack.ToArray();
            foreach (var successor in Successors(instruction))
                Flow(successor, after);
        }

        return new StackTypes(before);
    }

    /// <summary>The stack types at a join of <paramref name="known"/> and <paramref name="arriving"/>; null when the known ones already cover both.</summary>
    private static TypeReference[]? Join(MethodDefinition method, TypeReference[] known, TypeReference[] arriving, Instruction target)
    {
        if (known.Length != arriving.Length)
            throw new NotSupportedException($"stack heights {known.Length} and {arriving.Length} meet at IL_{target.Offset:x4}");
        TypeReference[]? joined = null;
        for (int i = 0; i < known.Length; i++)
        {
            var type = Join(method, known[i], arriving[i]);
            if (Same(type, known[i]))
                continue;
            joined ??= (TypeReference[])known.Clone();
            joined[i] = type;
        }
        return joined;
    }

    /// <summary>The type of a slot that holds a value of <paramref name="a"/> or of <paramref name="b"/>.</summary>
    private static TypeReference Join(MethodDefinition method, TypeReference a, TypeReference b)
    {
        var system = method.Module.TypeSystem;
        if (Same(a, b) || b == NullType)
            return a;
        if (a == NullType)
            return b;
        // Two numbers (primitives or enums) of one stack type (int32, int64, native int, F), declared narrower or wider.
        if (NumericKind(a) is { } kind && kind == NumericKind(b))
            return kind switch
            {
                MetadataType.Int32 => system.Int32,
                MetadataType.Int64 => system.Int64,
                MetadataType.IntPtr => system.IntPtr,
                _ => a.MetadataType == MetadataType.Single && b.MetadataType == MetadataType.Single ? system.Single : system.Double,
            };
        if (TypeResolution.IsObjectReference(a) && TypeResolution.IsObjectReference(b))
            // A base class found through another assembly's definitions (ArgumentException's
            // SystemException) is that assembly's reference: the spill's local and field need it
            // imported, its type arguments (the method's or its type's parameters) in the method's context.
            return CommonBaseClass(a, b) is { } common ? method.Module.ImportReference(common, method) : system.Object;
        return a;
    }

    /// <summary>The stack type a number (a primitive or an enum) is held as: int32 for bool, char and the small integers; null for anything else.</summary>
    private static MetadataType? NumericKind(TypeReference type) => TypeResolution.NumericType(type)?.MetadataType switch
    {
        MetadataType.Boolean or MetadataType.Char or MetadataType.SByte or MetadataType.Byte or MetadataType.Int16
            or MetadataType.UInt16 or MetadataType.Int32 or MetadataType.UInt32 => MetadataType.Int32,
        MetadataType.Int64 or MetadataType.UInt64 => MetadataType.Int64,
        MetadataType.IntPtr or MetadataType.UIntPtr => MetadataType.IntPtr,
        MetadataType.Single or MetadataType.Double => MetadataType.Double,
        _ => null,
    };

    /// <summary>
    /// The nearest class both <paramref name="a"/> and <paramref name="b"/> derive from (or are);
    /// null when that is only object, when either is an interface or an array, or when a base
    /// class cannot be resolved.
    /// </summary>
    private static TypeReference? CommonBaseClass(TypeReference a, TypeReference b)
    {
        var ancestorsOfA = BaseClasses(a);
        var ancestorsOfB = BaseClasses(b);
        if (ancestorsOfA is null || ancestorsOfB is null)
            return null;
        var identitiesOfA = ancestorsOfA.Select(TypeResolution.Identity).ToHashSet();
        return ancestorsOfB.FirstOrDefault(type => identitiesOfA.Contains(TypeResolution.Identity(type))) is { } common
            && common.FullName != "System.Object" ? common : null;
    }

    /// <summary><paramref name="type"/> and its base classes, nearest first, generic arguments substituted; null for an interface or an array, or when one cannot be resolved.</summary>
    private static List<TypeReference>? BaseClasses(TypeReference type)
    {
        var chain = new List<TypeReference>();
        try
        {
            for (TypeReference? current = type; current is not null;)
            {
                if (current is ArrayType || current.Resolve() is not { IsInterface: false } definition)
                    return null;
                chain.Add(current);
                current = definition.BaseType is { } baseType && current is GenericInstanceType instance
                    ? TypeResolution.Substitute(baseType, parameter => parameter.Type == GenericParameterType.Type ? instance.GenericArguments[parameter.Position] : null)
                    : definition.BaseType;
            }
        }
        catch (AssemblyResolutionException)
        {
            return null;
        }
        return chain;
    }

    private static bool Same(TypeReference a, TypeReference b) => ReferenceEquals(a, b) || TypeResolution.Identity(a) == TypeResolution.Identity(b);

    private static IEnumerable<Instruction> Successors(Instruction instruction)
    {
        var flow = instruction.OpCode.FlowControl;
        if (instruction.Operand is Instruction target)
            yield return target;
        else if (instruction.Operand is Instruction[] targets)
            foreach (var t in targets)
                yield return t;
        bool fallsThrough = flow is FlowControl.Next or FlowControl.Call or FlowControl.Cond_Branch or FlowControl.Meta or FlowControl.Break;
        if (fallsThrough && instruction.Next is not null)
            yield return instruction.Next;
    }

    private static void Step(MethodDefinition method, Instruction instruction, List<TypeReference> stack)
    {
        var system = method.Module.TypeSystem;
        var code = instruction.OpCode.Code;

        void Pop(int count) => stack.RemoveRange(stack.Count - count, count);
        TypeReference Top(int fromTop = 0) => stack[stack.Count - 1 - fromTop];
        void Push(TypeReference type) => stack.Add(type);

        switch (code)
        {
            case Code.Nop: case Code.Break: case Code.Constrained: case Code.Readonly: case Code.Volatile:
            case Code.Unaligned: case Code.Tail: case Code.No:
                return;
            case Code.Ldarg: Push(ParameterType(method, (ParameterDefinition)instruction.Operand)); return;
            case Code.Ldarga: Push(new ByReferenceType(ParameterType(method, (ParameterDefinition)instruction.Operand))); return;
            case Code.Starg: Pop(1); return;
            case Code.Ldloc: Push(((VariableDefinition)instruction.Operand).VariableType); return;
            case Code.Ldloca: Push(new ByReferenceType(((VariableDefinition)instruction.Operand).VariableType)); return;
            case Code.Stloc: Pop(1); return;
            case Code.Ldnull: Push(NullType); return;
            case Code.Ldc_I4: Push(system.Int32); return;
            case Code.Ldc_I8: Push(system.Int64); return;
            case Code.Ldc_R4: Push(system.Single); return;
            case Code.Ldc_R8: Push(system.Double); return;
            case Code.Ldstr: Push(system.String); return;
            case Code.Dup: Push(Top()); return;
            case Code.Pop: Pop(1); return;
            case Code.Call: case Code.Callvirt: case Code.Newobj:
                Invoke((MethodReference)instruction.Operand, code == Code.Newobj);
                return;
            case Code.Calli:
                var site = (CallSite)instruction.Operand;
                Pop(1 + site.Parameters.Count + (site.HasThis ? 1 : 0));
                if (TypeResolution.WithoutModifiers(site.ReturnType) is { MetadataType: not MetadataType.Void } returned)
                    Push(returned);
                return;
            case Code.Ret:
                if (method.ReturnType.MetadataType != MetadataType.Void && stack.Count > 0)
                    Pop(1);
                return;
            case Code.Br:
                return;
            case Code.Leave: case Code.Endfinally:
            case Code.Throw: case Code.Rethrow: case Code.Endfilter:
                stack.Clear();
                return;
            case Code.Brfalse: case Code.Brtrue: case Code.Switch: Pop(1); return;
            case Code.Beq: case Code.Bge: case Code.Bgt: case Code.Ble: case Code.Blt:
            case Code.Bne_Un: case Code.Bge_Un: case Code.Bgt_Un: case Code.Ble_Un: case Code.Blt_Un:
                Pop(2);
                return;
            case Code.Add: case Code.Sub: case Code.Mul: case Code.Div: case Code.Div_Un: case Code.Rem: case Code.Rem_Un:
            case Code.And: case Code.Or: case Code.Xor:
            case Code.Add_Ovf: case Code.Add_Ovf_Un: case Code.Sub_Ovf: case Code.Sub_Ovf_Un: case Code.Mul_Ovf: case Code.Mul_Ovf_Un:
                var binary = Widest(system, Top(1), Top());
                Pop(2);
                Push(binary);
                return;
            case Code.Shl: case Code.Shr: case Code.Shr_Un:
                Pop(1);
                var shifted = Widest(system, Top(), Top());
                Pop(1);
                Push(shifted);
                return;
            case Code.Neg: case Code.Not:
                var operand = Widest(system, Top(), Top());
                Pop(1);
                Push(operand);
                return;
            case Code.Ceq: case Code.Cgt: case Code.Cgt_Un: case Code.Clt: case Code.Clt_Un:
                Pop(2);
                Push(system.Int32);
                return;
            case Code.Conv_I1: case Code.Conv_I2: case Code.Conv_I4: case Code.Conv_U1: case Code.Conv_U2: case Code.Conv_U4:
            case Code.Conv_Ovf_I1: case Code.Conv_Ovf_I2: case Code.Conv_Ovf_I4: case Code.Conv_Ovf_U1: case Code.Conv_Ovf_U2: case Code.Conv_Ovf_U4:
            case Code.Conv_Ovf_I1_Un: case Code.Conv_Ovf_I2_Un: case Code.Conv_Ovf_I4_Un: case Code.Conv_Ovf_U1_Un: case Code.Conv_Ovf_U2_Un: case Code.Conv_Ovf_U4_Un:
                Pop(1); Push(system.Int32); return;
            case Code.Conv_I8: case Code.Conv_U8: case Code.Conv_Ovf_I8: case Code.Conv_Ovf_U8: case Code.Conv_Ovf_I8_Un: case Code.Conv_Ovf_U8_Un:
                Pop(1); Push(system.Int64); return;
            case Code.Conv_I: case Code.Conv_U: case Code.Conv_Ovf_I: case Code.Conv_Ovf_U: case Code.Conv_Ovf_I_Un: case Code.Conv_Ovf_U_Un:
                Pop(1); Push(system.IntPtr); return;
            case Code.Conv_R4: Pop(1); Push(system.Single); return;
            case Code.Conv_R8: case Code.Conv_R_Un: Pop(1); Push(system.Double); return;
            case Code.Ckfinite: return;
            case Code.Ldfld: Pop(1); Push(FieldType(instruction)); return;
            case Code.Ldflda: Pop(1); Push(new ByReferenceType(FieldType(instruction))); return;
            case Code.Ldsfld: Push(FieldType(instruction)); return;
            case Code.Ldsflda: Push(new ByReferenceType(FieldType(instruction))); return;
            case Code.Stfld: Pop(2); return;
            case Code.Stsfld: Pop(1); return;
            case Code.Ldlen: Pop(1); Push(system.IntPtr); return;
            case Code.Newarr: Pop(1); Push(new ArrayType((TypeReference)instruction.Operand)); return;
            case Code.Ldelema: Pop(2); Push(new ByReferenceType((TypeReference)instruction.Operand)); return;
            case Code.Ldelem_Any: Pop(2); Push((TypeReference)instruction.Operand); return;
            case Code.Ldelem_Ref:
                var array = Top(1);
                Pop(2);
                Push(array is ArrayType arrayType ? arrayType.ElementType : system.Object);
                return;
            case Code.Ldelem_I1: case Code.Ldelem_U1: case Code.Ldelem_I2: case Code.Ldelem_U2: case Code.Ldelem_I4: case Code.Ldelem_U4:
                Pop(2); Push(system.Int32); return;
            case Code.Ldelem_I8: Pop(2); Push(system.Int64); return;
            case Code.Ldelem_I: Pop(2); Push(system.IntPtr); return;
            case Code.Ldelem_R4: Pop(2); Push(system.Single); return;
            case Code.Ldelem_R8: Pop(2); Push(system.Double); return;
            case Code.Stelem_Any: case Code.Stelem_I: case Code.Stelem_I1: case Code.Stelem_I2: case Code.Stelem_I4: case Code.Stelem_I8:
            case Code.Stelem_R4: case Code.Stelem_R8: case Code.Stelem_Ref:
                Pop(3); return;
            case Code.Ldind_I1: case Code.Ldind_U1: case Code.Ldind_I2: case Code.Ldind_U2: case Code.Ldind_I4: case Code.Ldind_U4:
                Pop(1); Push(system.Int32); return;
            case Code.Ldind_I8: Pop(1); Push(system.Int64); return;
            case Code.Ldind_I: Pop(1); Push(system.IntPtr); return;
            case Code.Ldind_R4: Pop(1); Push(system.Single); return;
            case Code.Ldind_R8: Pop(1); Push(system.Double); return;
            case Code.Ldind_Ref:
                var pointer = Top();
                Pop(1);
                Push(pointer is ByReferenceType byRef ? byRef.ElementType : system.Object);
                return;
            case Code.Ldobj: Pop(1); Push((TypeReference)instruction.Operand); return;
            case Code.Stind_I: case Code.Stind_I1: case Code.Stind_I2: case Code.Stind_I4: case Code.Stind_I8:
            case Code.Stind_R4: case Code.Stind_R8: case Code.Stind_Ref: case Code.Stobj:
                Pop(2); return;
            case Code.Cpobj: Pop(2); return;
            case Code.Initobj: Pop(1); return;
            case Code.Cpblk: case Code.Initblk: Pop(3); return;
            case Code.Box: Pop(1); Push(system.Object); return;
            case Code.Unbox: Pop(1); Push(new ByReferenceType((TypeReference)instruction.Operand)); return;
            case Code.Unbox_Any: case Code.Castclass: case Code.Isinst:
                Pop(1); Push((TypeReference)instruction.Operand); return;
            case Code.Ldtoken:
                Push(instruction.Operand switch
                {
                    TypeReference => Runtime(method, "RuntimeTypeHandle"),
                    FieldReference => Runtime(method, "RuntimeFieldHandle"),
                    _ => Runtime(method, "RuntimeMethodHandle"),
                });
                return;
            case Code.Ldftn: Push(system.IntPtr); return;
            case Code.Ldvirtftn: Pop(1); Push(system.IntPtr); return;
            case Code.Sizeof: Push(system.Int32); return;
            case Code.Localloc: Pop(1); Push(system.IntPtr); return;
            case Code.Mkrefany: Pop(1); Push(system.TypedReference); return;
            case Code.Refanyval: Pop(1); Push(new ByReferenceType((TypeReference)instruction.Operand)); return;
            case Code.Refanytype: Pop(1); Push(Runtime(method, "RuntimeTypeHandle")); return;
            case Code.Arglist: Push(Runtime(method, "RuntimeArgumentHandle")); return;
            case Code.Jmp: return;
            default:
                throw new NotSupportedException($"opcode {instruction.OpCode} is not modelled");
        }

        void Invoke(MethodReference callee, bool isConstructor)
        {
            int count = callee.Parameters.Count + (callee.HasThis && !isConstructor ? 1 : 0);
            Pop(count);
            if (isConstructor)
                Push(callee.DeclaringType);
            else if (TypeResolution.InContextOf(callee.ReturnType, callee) is { MetadataType: not MetadataType.Void } returned)
                Push(returned); // an init-only setter returns void modreq(IsExternalInit): nothing
        }

        TypeReference FieldType(Instruction field)
        {
            var reference = (FieldReference)field.Operand;
            return TypeResolution.InContextOf(reference.FieldType, reference);
        }
    }

    private static TypeReference ParameterType(MethodDefinition method, ParameterDefinition parameter)
    {
        if (parameter == method.Body.ThisParameter)
        {
            var self = TypeResolution.SelfInstance(method.DeclaringType);
            return self.IsValueType ? new ByReferenceType(self) : self;
        }
        return parameter.ParameterType;
    }

    /// <summary>
    /// The result type of binary arithmetic per ECMA-335 III.1.5 (int32 &lt; native int, int64, F).
    /// F is kept as float32 when both operands are: .NET computes float32 arithmetic in float32,
    /// and a result spilled as float64 would carry the rest of its expression into float64 too.
    /// </summary>
    private static TypeReference Widest(TypeSystem system, TypeReference left, TypeReference right)
    {
        // An enum operand counts as its underlying type: a long-based enum's | is int64 arithmetic.
        left = TypeResolution.NumericType(left) ?? left;
        right = TypeResolution.NumericType(right) ?? right;
        int Rank(TypeReference t) => t.MetadataType switch
        {
            MetadataType.Int64 or MetadataType.UInt64 => 2,
            MetadataType.IntPtr or MetadataType.UIntPtr or MetadataType.Pointer => 1,
            MetadataType.Single or MetadataType.Double => 3,
            MetadataType.ByReference => 4,
            _ => 0,
        };
        var wider = Rank(left) >= Rank(right) ? left : right;
        return Rank(wider) switch
        {
            0 => system.Int32,
            1 => system.IntPtr,
            2 => system.Int64,
            3 => left.MetadataType == MetadataType.Single && right.MetadataType == MetadataType.Single ? system.Single : system.Double,
            _ => wider,
        };
    }

    private static TypeReference Runtime(MethodDefinition method, string name) =>
        new TypeReference("System", name, method.Module, method.Module.TypeSystem.CoreLibrary, valueType: true);
}
