using Mono.Cecil;
using Mono.Cecil.Cil;
using Mono.Cecil.Rocks;
using Async2.Rewriter.Analysis;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Interface calls between rewritten methods. An interface method IM of this module that a
/// rewritten method implements (or that is itself a rewritten default implementation) gets an
/// entry on the interface: a default method that calls IM and awaits its task, right for any
/// implementation, rewritten or not, in any assembly. Each rewritten implementation overrides
/// that entry with one that calls its variant, so a rewritten caller holding the interface
/// reaches a rewritten implementation without a Task:
/// <code>
/// interface I { R IM'entry(args, ref chain, unused) => OverrideDispatch.Await(IM(args), ref chain); }
/// class C : I { R I.IM'entry(args, ref chain, unused)
///     => GetType() == typeof(C) ? M'(args, ref chain) : OverrideDispatch.Await(((I)this).IM(args), ref chain); }
/// </code>
/// The exact-type test keeps a subclass that re-implements I, or overrides M without being
/// rewritten, on the always-correct Task path; sealed classes and structs need no test.
/// Callers do not call the entry itself but a static guard beside it, since a DispatchProxy
/// implements every virtual member of an interface, the internal entries too, and would be asked
/// for the entry instead of IM (<see cref="DeclareGuard"/>). An interface with a variant type
/// parameter gets no entries (<see cref="HasVariance"/>).
/// </summary>
internal static class InterfaceEntries
{
    public static void Add(VariantMap variants, RuntimeReferences runtime)
    {
        int ordinal = 0;
        foreach (var declaration in variants.All.ToList())
        {
            var method = declaration.Original;
            if (method.IsStatic)
                continue;
            if (method.DeclaringType.IsInterface)
            {
                VirtualEntries.SlotEntry(method, variants, runtime);
                continue;
            }
            foreach (var (slot, interfaceType) in ImplementedSlots(method).ToList())
            {
                if (VirtualEntries.SlotEntry(slot, variants, runtime) is not { } entry)
                    continue;
                var implementation = EntryCode.Declare(method.DeclaringType, $"<{method.Name}>i__Async2_{ordinal++}",
                    MethodAttributes.Private | MethodAttributes.Virtual | MethodAttributes.Final | MethodAttributes.NewSlot | MethodAttributes.HideBySig,
                    method, declaration.Shape.Result, runtime);
                implementation.Overrides.Add(GenericContext.MethodOn(entry, interfaceType, []));
                EmitImplementation(declaration, implementation, GenericContext.MethodOn(slot, interfaceType, [.. implementation.GenericParameters]), runtime);
            }
        }
    }

    /// <summary>
    /// Whether <paramref name="type"/> is an interface with a co- or contravariant type parameter
    /// (<c>IHandler&lt;in T&gt;</c>). Calls through it go through the Task: for an entry that the
    /// object's class does not implement for the instantiation a caller names, the runtime picks
    /// the class's implementation for another, variance-compatible instantiation before the
    /// interface's default one, and that entry would run (or ask the Task of) the method
    /// implementing that other instantiation: <c>IHandler&lt;object&gt;.Handle</c> where the class
    /// implements <c>IHandler&lt;string&gt;.Handle</c> itself, unrewritten.
    /// </summary>
    public static bool HasVariance(TypeDefinition type) =>
        type.IsInterface && type.GenericParameters.Any(p => (p.Attributes & GenericParameterAttributes.VarianceMask) != 0);

    /// <summary>
    /// Declares on the interface the method rewritten callers call in place of its
    /// <paramref name="entry"/>: <c>static R IM'guard(I self, args, ref chain, unused) =>
    /// OverrideDispatch.IsRuntimeProxy(self) ? OverrideDispatch.Await(self.IM(args), ref chain) : self.IM'entry(args, ref chain, unused)</c>.
    /// A DispatchProxy (WCF clients, decorators, some mocking libraries) is asked for IM, as in
    /// classic async; anything else costs a class test, which the JIT inlines.
    /// </summary>
    public static MethodDefinition DeclareGuard(MethodDefinition entry, MethodDefinition slot, RuntimeReferences runtime)
    {
        var type = slot.DeclaringType;
        var self = TypeResolution.SelfInstance(type);
        // Not "g__": the trimmer takes <X>g__ names for local functions, and warns (IL2117) when two methods call one.
        var guard = new MethodDefinition($"<{slot.Name}>p__Async2", MethodAttributes.Assembly | MethodAttributes.Static | MethodAttributes.HideBySig, entry.ReturnType);
        GenericContext.CopyParameters(entry.GenericParameters, guard, constraint => constraint);
        guard.Parameters.Add(new ParameterDefinition("self", ParameterAttributes.None, self));
        foreach (var parameter in entry.Parameters)
            guard.Parameters.Add(CoreAttributes.AnnotatedCopy(parameter, parameter.Attributes, parameter.ParameterType, type.Module));
        guard.CustomAttributes.Add(CoreAttributes.CompilerGenerated(type.Module));
        guard.CustomAttributes.Add(CoreAttributes.StackTraceHidden(type.Module));
        guard.ImplAttributes |= MethodImplAttributes.AggressiveInlining;
        type.Methods.Add(guard);

        var il = guard.Body.GetILProcessor();
        var taskPath = Instruction.Create(OpCodes.Ldarg_0);
        il.Emit(OpCodes.Ldarg_0);
        il.Emit(OpCodes.Call, runtime.IsRuntimeProxy);
        il.Emit(OpCodes.Brtrue, taskPath);
        foreach (var parameter in guard.Parameters)
            il.Emit(OpCodes.Ldarg, parameter);
        il.Emit(OpCodes.Callvirt, GenericContext.MethodOn(entry, self, [.. guard.GenericParameters]));
        il.Emit(OpCodes.Ret);
        il.Append(taskPath);
        foreach (var parameter in guard.Parameters.Skip(1).SkipLast(2))
            il.Emit(OpCodes.Ldarg, parameter);
        il.Emit(OpCodes.Callvirt, GenericContext.MethodOn(slot, self, [.. guard.GenericParameters]));
        il.Emit(OpCodes.Ldarg, guard.Parameters[^2]);
        il.Emit(OpCodes.Call, runtime.AwaitOverride(slot.ReturnType));
        il.Emit(OpCodes.Ret);
        guard.Body.OptimizeMacros();
        return guard;
    }

    private static void EmitImplementation(VariantDeclaration declaration, MethodDefinition implementation, MethodReference slotCall, RuntimeReferences runtime)
    {
        var owner = declaration.Original.DeclaringType;
        var self = TypeResolution.SelfInstance(owner);
        var il = implementation.Body.GetILProcessor();
        var runOwnBody = Instruction.Create(OpCodes.Ldarg_0);
        if (!owner.IsSealed) // value types are always sealed
        {
            EntryCode.EmitExactTypeTest(il, self, runOwnBody, runtime);
            EntryCode.EmitTaskCall(il, implementation, slotCall, declaration.Original.ReturnType, runtime);
        }
        EntryCode.EmitVariantCall(il, implementation, runOwnBody, declaration.CallOn(self, [.. implementation.GenericParameters]));
    }

    /// <summary>
    /// The interface methods of this module that <paramref name="method"/> implements, each with
    /// the interface as its type names it: explicitly (<c>.override</c>), or implicitly by name and
    /// signature, for interfaces the type lists and does not implement explicitly for that method.
    /// </summary>
    private static IEnumerable<(MethodDefinition Slot, TypeReference Interface)> ImplementedSlots(MethodDefinition method)
    {
        var type = method.DeclaringType;
        foreach (var overridden in method.Overrides)
            if (TypeResolution.DefinitionInModule(overridden.DeclaringType) is { IsInterface: true } definition
                && definition.Methods.FirstOrDefault(m => IsNamedBy(m, overridden)) is { } slot
                && TaskShape.Of(slot) is not null)
                yield return (slot, overridden.DeclaringType);
        if (!method.IsPublic || !method.IsVirtual)
            yield break;
        foreach (var implemented in type.Interfaces.Select(i => i.InterfaceType))
        {
            if (TypeResolution.DefinitionInModule(implemented) is not { } definition)
                continue;
            // A sealed member (non-virtual, with a body) is no slot: a class method of its name implements nothing.
            foreach (var slot in definition.Methods.Where(m => m.IsVirtual && !m.IsStatic && VirtualEntries.SameSignature(method, m, implemented)))
            {
                bool explicitlyElsewhere = type.Methods.Any(other => other.Overrides.Any(o =>
                    o.Name == slot.Name && TypeResolution.DefinitionInModule(o.DeclaringType) == definition && o.DeclaringType.FullName == implemented.FullName));
                if (!explicitlyElsewhere && TaskShape.Of(slot) is not null)
                    yield return (slot, implemented);
            }
        }
    }

    /// <summary>Whether <paramref name="reference"/> (as written in an <c>.override</c>, in the declaring type's own terms) names <paramref name="method"/>.</summary>
    private static bool IsNamedBy(MethodDefinition method, MethodReference reference) =>
        method.Name == reference.Name
        && method.GenericParameters.Count == reference.GenericParameters.Count
        && TypeResolution.SignatureIdentity(method.ReturnType) == TypeResolution.SignatureIdentity(reference.ReturnType)
        && method.Parameters.Select(p => TypeResolution.SignatureIdentity(p.ParameterType))
            .SequenceEqual(reference.Parameters.Select(p => TypeResolution.SignatureIdentity(p.ParameterType)));

}
