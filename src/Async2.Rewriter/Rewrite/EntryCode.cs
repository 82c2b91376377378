using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Mono.Cecil.Rocks;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// The pieces virtual and interface entries are made of (<see cref="VirtualEntries"/>,
/// <see cref="InterfaceEntries"/>). An entry has a variant's parameter list, with the
/// continuation typed as the common base class: it is only ever called (resumption goes to the
/// variant itself), and entries that override one another must agree on one signature.
/// </summary>
internal static class EntryCode
{
    /// <summary>
    /// Declares on <paramref name="owner"/> an entry for <paramref name="method"/> (its parameters
    /// and generic parameters) returning <paramref name="result"/>, with an empty body.
    /// </summary>
    public static MethodDefinition Declare(TypeDefinition owner, string name, MethodAttributes attributes,
        MethodDefinition method, TypeReference result, RuntimeReferences runtime)
    {
        var entry = new MethodDefinition(name, attributes, result);
        GenericContext.CopyParameters(method.GenericParameters, entry, constraint => constraint);
        VariantMap.AddParameters(entry, method, new ParameterDefinition("unused", ParameterAttributes.None, runtime.Continuation), runtime);
        entry.CustomAttributes.Add(CoreAttributes.CompilerGenerated(owner.Module));
        // An exception thrown by the body it reaches shows that body's frame, as in classic async.
        entry.CustomAttributes.Add(CoreAttributes.StackTraceHidden(owner.Module));
        owner.Methods.Add(entry);
        return entry;
    }

    /// <summary><c>if (GetType() == typeof(self)) goto target;</c></summary>
    public static void EmitExactTypeTest(ILProcessor il, TypeReference self, Instruction target, RuntimeReferences runtime)
    {
        il.Emit(OpCodes.Ldarg_0);
        il.Emit(OpCodes.Callvirt, runtime.ObjectGetType);
        il.Emit(OpCodes.Ldtoken, self);
        il.Emit(OpCodes.Call, runtime.TypeFromHandle);
        il.Emit(OpCodes.Call, runtime.TypeEquality);
        il.Emit(OpCodes.Brtrue, target);
    }

    /// <summary>
    /// <c>return OverrideDispatch.Await(this.M(args), ref chain);</c>: a virtual call of the Task
    /// method, which reaches whatever implementation the object has, rewritten or not.
    /// </summary>
    public static void EmitTaskCall(ILProcessor il, MethodDefinition entry, MethodReference taskMethod, TypeReference taskType, RuntimeReferences runtime)
    {
        il.Emit(OpCodes.Ldarg_0);
        foreach (var parameter in entry.Parameters.SkipLast(2))
            il.Emit(OpCodes.Ldarg, parameter);
        il.Emit(OpCodes.Callvirt, taskMethod);
        il.Emit(OpCodes.Ldarg, entry.Parameters[^2]);
        il.Emit(OpCodes.Call, runtime.AwaitOverride(taskType));
        il.Emit(OpCodes.Ret);
    }

    /// <summary><c>first: return M'(args, ref chain[, null]);</c>, and the body is complete.</summary>
    public static void EmitVariantCall(ILProcessor il, MethodDefinition entry, Instruction first, CalledVariant variant)
    {
        il.Append(first);
        foreach (var parameter in entry.Parameters.SkipLast(1))
            il.Emit(OpCodes.Ldarg, parameter);
        foreach (var instruction in variant.AfterChain(instanceCall: OpCodes.Call))
            il.Append(instruction);
        il.Emit(OpCodes.Ret);
        entry.Body.OptimizeMacros();
    }
}
