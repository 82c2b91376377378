using Mono.Cecil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Generic plumbing for the code the rewriter generates. Inside a generic type or method, IL may
/// not name a member by its definition: it names it on an instantiation (<c>Owner&lt;!0&gt;::M'&lt;!!0&gt;</c>,
/// <c>Cont&lt;!0, !!0&gt;::local0</c>), with the signature written as declared. These helpers build
/// such references, and declare generic parameters that mirror another member's.
/// </summary>
internal static class GenericContext
{
    /// <summary>
    /// Declares on <paramref name="target"/> one generic parameter per <paramref name="source"/>
    /// parameter, in order, with the same special constraints (class, struct, new()) and the same
    /// type constraints, each passed through <paramref name="mapConstraint"/> into the target's context.
    /// </summary>
    public static void CopyParameters(IEnumerable<GenericParameter> source, IGenericParameterProvider target, Func<TypeReference, TypeReference> mapConstraint)
    {
        var pairs = source
            .Select(parameter => (parameter, copy: new GenericParameter(parameter.Name, target)
            {
                Attributes = parameter.Attributes & ~GenericParameterAttributes.VarianceMask,
            }))
            .ToList();
        // All parameters exist before any constraint is mapped: `where T : IComparer<U>` may name a later one.
        foreach (var (parameter, copy) in pairs)
        {
            // A target not yet added to its type has no module: it is then the source's own.
            CoreAttributes.CopyTrimmingAnnotations(parameter, copy, target.Module ?? parameter.Module);
            target.GenericParameters.Add(copy);
        }
        foreach (var (parameter, copy) in pairs)
            foreach (var constraint in parameter.Constraints)
                copy.Constraints.Add(new GenericParameterConstraint(mapConstraint(constraint.ConstraintType)));
    }

    /// <summary>
    /// <paramref name="method"/> as called on <paramref name="declaringType"/> (its own type or an
    /// instantiation of it) with <paramref name="methodArguments"/> for its own generic parameters.
    /// The definition itself when nothing is generic.
    /// </summary>
    public static MethodReference MethodOn(MethodDefinition method, TypeReference declaringType, IReadOnlyList<TypeReference> methodArguments)
    {
        if (declaringType is TypeDefinition && methodArguments.Count == 0)
            return method;
        // The signature of a member reference is the declared one, in terms of !i and !!j.
        var reference = new MethodReference(method.Name, method.ReturnType, declaringType)
        {
            HasThis = method.HasThis,
            ExplicitThis = method.ExplicitThis,
            CallingConvention = method.CallingConvention,
        };
        foreach (var parameter in method.GenericParameters)
            reference.GenericParameters.Add(new GenericParameter(parameter.Name, reference));
        foreach (var parameter in method.Parameters)
            reference.Parameters.Add(new ParameterDefinition(parameter.ParameterType));
        if (methodArguments.Count == 0)
            return reference;
        var instance = new GenericInstanceMethod(reference);
        foreach (var argument in methodArguments)
            instance.GenericArguments.Add(argument);
        return instance;
    }

    /// <summary><paramref name="field"/> as accessed on <paramref name="declaringType"/> (its own type or an instantiation of it).</summary>
    public static FieldReference FieldOn(FieldDefinition field, TypeReference declaringType) =>
        declaringType is TypeDefinition ? field : new FieldReference(field.Name, field.FieldType, declaringType);
}
