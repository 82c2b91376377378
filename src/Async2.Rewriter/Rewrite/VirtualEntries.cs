using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;

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
            if (OverriddenEntry(declaration.Original, variants) is { } overridden)
                entry.Overrides.Add(overridden);
            else
                entry.Attributes |= MethodAttributes.NewSlot;
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

    /// <summary>
    /// The entry that <paramref name="method"/>'s entry overrides: that of the nearest base method
    /// of this module that <paramref name="method"/> overrides, if it is rewritten. Base types of
    /// other modules are not loaded; their methods have no entry this module could know of.
    /// </summary>
    private static MethodReference? OverriddenEntry(MethodDefinition method, VariantMap variants)
    {
        if (method.IsNewSlot)
            return null;
        for (var baseType = method.DeclaringType.BaseType; baseType is not null;)
        {
            var definition = baseType as TypeDefinition ?? (baseType as GenericInstanceType)?.ElementType as TypeDefinition;
            if (definition is null)
                return null;
            var overridden = definition.Methods.FirstOrDefault(m => m.IsVirtual && SameSignature(method, m, baseType));
            if (overridden is not null)
            {
                if (overridden.IsNewSlot && overridden.IsFinal)
                    return null;
                var entry = variants.Declaration(overridden)?.VirtualEntry;
                return entry is null ? null : GenericContext.MethodOn(entry, baseType, []);
            }
            baseType = definition.BaseType is { } next ? ThroughOwner(next, baseType, method) : null;
        }
        return null;
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
        EntryCode.EmitVariantCall(il, entry, runOwnBody, GenericContext.MethodOn(declaration.Variant, self, ownArguments));
    }
}
