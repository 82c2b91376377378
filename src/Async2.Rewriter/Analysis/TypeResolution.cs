using Mono.Cecil;

namespace Async2.Rewriter.Analysis;

/// <summary>
/// Substitutes generic arguments into member signatures: the return type of
/// <c>List&lt;int&gt;::get_Item</c> is <c>!0</c> in metadata and <c>int</c> on the stack.
/// </summary>
internal static class TypeResolution
{
    /// <summary>The type of <paramref name="type"/> as seen through <paramref name="member"/>'s instantiation.</summary>
    public static TypeReference InContextOf(TypeReference type, MemberReference member)
    {
        var declaring = member.DeclaringType as GenericInstanceType;
        var method = member as GenericInstanceMethod;
        if (declaring is null && method is null)
            return StripModifiers(type);
        return Substitute(type, declaring, method);
    }

    private static TypeReference Substitute(TypeReference type, GenericInstanceType? declaring, GenericInstanceMethod? method)
    {
        switch (type)
        {
            case GenericParameter { Type: GenericParameterType.Type } p when declaring is not null:
                return declaring.GenericArguments[p.Position];
            case GenericParameter { Type: GenericParameterType.Method } p when method is not null:
                return method.GenericArguments[p.Position];
            case ByReferenceType byRef:
                return new ByReferenceType(Substitute(byRef.ElementType, declaring, method));
            case PointerType pointer:
                return new PointerType(Substitute(pointer.ElementType, declaring, method));
            case ArrayType array:
                return new ArrayType(Substitute(array.ElementType, declaring, method), array.Rank);
            case IModifierType modified:
                return Substitute(modified.ElementType, declaring, method);
            case PinnedType pinned:
                return Substitute(pinned.ElementType, declaring, method);
            case GenericInstanceType instance:
                var result = new GenericInstanceType(instance.ElementType);
                foreach (var argument in instance.GenericArguments)
                    result.GenericArguments.Add(Substitute(argument, declaring, method));
                return result;
            default:
                return type;
        }
    }

    private static TypeReference StripModifiers(TypeReference type) =>
        type is IModifierType modified ? StripModifiers(modified.ElementType) : type;
}
