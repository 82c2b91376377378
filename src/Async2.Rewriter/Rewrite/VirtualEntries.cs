using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Mono.Cecil.Rocks;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Virtual dispatch between rewritten methods. The variant M' is not virtual: the Task thunk and
/// non-virtual calls (<c>base.M()</c>) must reach exactly M's body. A virtual M therefore also
/// gets an entry, a virtual method with M''s signature that rewritten callers call through a
/// base reference. Entries form their own slot family: the entry of a rewritten override
/// overrides the entry of the rewritten method it overrides, so virtual dispatch on the entry
/// picks the most derived rewritten body.
/// <code>
/// virtual R M'entry(args, ref AsyncChain chain, Continuation unused)
/// {
///     if (GetType() == typeof(Self) || OverrideDispatch.RunsOwnBody(this, Self, "M"))
///         return M'(args, ref chain, null);
///     return OverrideDispatch.Await(M(args), ref chain);   // overridden by a non-rewritten M
/// }
/// </code>
/// The check is left out where nothing can override M below (a final method, a sealed type).
/// An entry is only ever called, never resumed (resumption goes to M' itself), but it keeps the
/// variant's parameter list, with the continuation typed as the common base class, so that
/// callers pass the same arguments to both and overriding entries agree on one signature.
/// </summary>
internal static class VirtualEntries
{
    /// <summary>Whether <paramref name="method"/> may be reached through a slot that other code can override or that overrides another.</summary>
    public static bool Needed(MethodDefinition method) =>
        method.IsVirtual && !method.IsAbstract && !method.DeclaringType.IsInterface && !(method.IsFinal && method.IsNewSlot);

    /// <summary>Whether a virtual call to <paramref name="method"/> may end up in another body than its own.</summary>
    public static bool CanBeOverridden(MethodDefinition method) =>
        method.IsVirtual && !method.IsFinal && !method.DeclaringType.IsSealed;

    /// <summary>Declares and emits the entries of every virtual method in <paramref name="variants"/>.</summary>
    public static void Add(VariantMap variants, RuntimeReferences runtime)
    {
        var declarations = variants.All.Where(d => Needed(d.Original)).ToList();
        foreach (var declaration in declarations)
            declaration.VirtualEntry = Declare(declaration, runtime);
        foreach (var declaration in declarations)
        {
            var entry = declaration.VirtualEntry!;
            Place(entry, declaration.Original, variants, runtime);
            EmitBody(declaration, runtime);
        }
    }

    private static MethodDefinition Declare(VariantDeclaration declaration, RuntimeReferences runtime)
    {
        var original = declaration.Original;
        var attributes = MethodAttributes.Assembly | MethodAttributes.Virtual | MethodAttributes.HideBySig
            | (original.IsFinal ? MethodAttributes.Final : 0);
        return EntryCode.Declare(original.DeclaringType, $"<{original.Name}>v__Async2", attributes, original, declaration.Shape.Result, runtime);
    }

    /// <summary>Makes <paramref name="entry"/> override the entry of the method <paramref name="method"/> overrides, or start a slot of its own.</summary>
    private static void Place(MethodDefinition entry, MethodDefinition method, VariantMap variants, RuntimeReferences runtime)
    {
        if (OverriddenEntry(method, variants, runtime) is { } overridden)
            entry.Overrides.Add(overridden);
        else
            entry.Attributes |= MethodAttributes.NewSlot;
    }

    /// <summary>
    /// The entry that <paramref name="method"/>'s entry overrides: that of the nearest base method
    /// of this module that <paramref name="method"/> overrides. A base method without a variant
    /// (abstract, or not async) gets a bridging entry for the purpose (<see cref="SlotEntry"/>).
    /// Base types of other modules are not loaded; their methods have no entry this module could know of.
    /// </summary>
    private static MethodReference? OverriddenEntry(MethodDefinition method, VariantMap variants, RuntimeReferences runtime)
    {
        if (method.IsNewSlot)
            return null;
        for (var baseType = method.DeclaringType.BaseType; baseType is not null;)
        {
            var definition = TypeResolution.DefinitionInModule(baseType);
            if (definition is null)
                return null;
            var overridden = definition.Methods.FirstOrDefault(m => m.IsVirtual && SameSignature(method, m, baseType));
            if (overridden is not null)
            {
                var entry = variants.Declaration(overridden)?.VirtualEntry ?? SlotEntry(overridden, variants, runtime);
                return entry is null ? null : GenericContext.MethodOn(entry, baseType, []);
            }
            baseType = definition.BaseType is { } next ? ThroughOwner(next, baseType, method) : null;
        }
        return null;
    }

    /// <summary>
    /// The entry of a virtual or interface method that has no variant-backed entry of its own (an
    /// abstract or non-async method that rewritten methods override or implement, or a rewritten
    /// default interface method), declared on first use: it calls the method and awaits its task,
    /// which is right for every implementation, and rewritten ones override it. Null for a method
    /// that is final or does not return a Task type.
    /// </summary>
    public static MethodDefinition? SlotEntry(MethodDefinition slot, VariantMap variants, RuntimeReferences runtime)
    {
        if (variants.SlotEntry(slot) is { } existing)
            return existing;
        if (slot.IsFinal || slot.IsStatic || TaskShape.Of(slot) is not { } shape)
            return null;
        var entry = EntryCode.Declare(slot.DeclaringType, $"<{slot.Name}>v__Async2",
            MethodAttributes.Assembly | MethodAttributes.Virtual | MethodAttributes.HideBySig, slot, shape.Result, runtime);
        variants.AddSlotEntry(slot, entry);
        Place(entry, slot, variants, runtime);
        var self = TypeResolution.SelfInstance(slot.DeclaringType);
        EntryCode.EmitTaskCall(entry.Body.GetILProcessor(), entry, GenericContext.MethodOn(slot, self, [.. entry.GenericParameters]), slot.ReturnType, runtime);
        entry.Body.OptimizeMacros();
        return entry;
    }

    /// <summary>Whether <paramref name="method"/> has the name and signature of <paramref name="candidate"/> as seen through <paramref name="candidateOwner"/>.</summary>
    internal static bool SameSignature(MethodDefinition method, MethodDefinition candidate, TypeReference candidateOwner)
    {
        if (candidate.Name != method.Name || candidate.Parameters.Count != method.Parameters.Count
            || candidate.GenericParameters.Count != method.GenericParameters.Count)
            return false;
        string Seen(TypeReference type) => ThroughOwner(type, candidateOwner, method).FullName;
        return Seen(candidate.ReturnType) == TypeResolution.Substitute(method.ReturnType, _ => null).FullName
            && candidate.Parameters.Select(p => Seen(p.ParameterType))
                .SequenceEqual(method.Parameters.Select(p => TypeResolution.Substitute(p.ParameterType, _ => null).FullName));
    }

    /// <summary>
    /// <paramref name="type"/>, written inside <paramref name="owner"/>'s definition, as seen
    /// from a derived <paramref name="method"/>: the owner's parameters become the arguments the
    /// derived type passes, and method parameters become the derived method's, position by position.
    /// </summary>
    internal static TypeReference ThroughOwner(TypeReference type, TypeReference owner, MethodDefinition method) =>
        TypeResolution.Substitute(type, parameter => parameter.Type switch
        {
            GenericParameterType.Type when owner is GenericInstanceType instance => instance.GenericArguments[parameter.Position],
            GenericParameterType.Method when parameter.Position < method.GenericParameters.Count => method.GenericParameters[parameter.Position],
            _ => null,
        });

    private static void EmitBody(VariantDeclaration declaration, RuntimeReferences runtime)
    {
        var original = declaration.Original;
        var entry = declaration.VirtualEntry!;
        var self = TypeResolution.SelfInstance(original.DeclaringType);
        TypeReference[] ownArguments = [.. entry.GenericParameters];
        var il = entry.Body.GetILProcessor();
        var runOwnBody = Instruction.Create(OpCodes.Ldarg_0);

        if (CanBeOverridden(original))
        {
            EntryCode.EmitExactTypeTest(il, self, runOwnBody, runtime);
            il.Emit(OpCodes.Ldarg_0);
            il.Emit(OpCodes.Ldtoken, self);
            il.Emit(OpCodes.Ldstr, original.Name);
            il.Emit(OpCodes.Call, runtime.RunsOwnBody);
            il.Emit(OpCodes.Brtrue, runOwnBody);
            EntryCode.EmitTaskCall(il, entry, GenericContext.MethodOn(original, self, ownArguments), original.ReturnType, runtime);
        }
        EntryCode.EmitVariantCall(il, entry, runOwnBody, declaration.VariantOn(self, ownArguments));
    }
}
