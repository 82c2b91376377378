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
            return WithoutModifiers(type);
        return Substitute(type, parameter => parameter.Type switch
        {
            GenericParameterType.Type when declaring is not null => declaring.GenericArguments[parameter.Position],
            GenericParameterType.Method when method is not null => method.GenericArguments[parameter.Position],
            _ => null,
        });
    }

    /// <summary>
    /// <paramref name="type"/> with every generic parameter the map knows replaced (those it maps
    /// to null are kept), and custom modifiers and pinning dropped.
    /// </summary>
    public static TypeReference Substitute(TypeReference type, Func<GenericParameter, TypeReference?> map)
    {
        switch (type)
        {
            case GenericParameter parameter:
                return map(parameter) ?? parameter;
            case ByReferenceType byRef:
                return new ByReferenceType(Substitute(byRef.ElementType, map));
            case PointerType pointer:
                return new PointerType(Substitute(pointer.ElementType, map));
            case ArrayType array:
                return new ArrayType(Substitute(array.ElementType, map), array.Rank);
            case IModifierType modified:
                return Substitute(modified.ElementType, map);
            case PinnedType pinned:
                return Substitute(pinned.ElementType, map);
            case GenericInstanceType instance:
                var result = new GenericInstanceType(instance.ElementType);
                foreach (var argument in instance.GenericArguments)
                    result.GenericArguments.Add(Substitute(argument, map));
                return result;
            default:
                return type;
        }
    }

    /// <summary>
    /// The type of <c>this</c> inside <paramref name="type"/>'s own methods: the type itself, or for a
    /// generic type its instantiation over its own parameters (<c>Owner&lt;!0&gt;</c>), since a bare
    /// generic type definition is not a valid type in a signature.
    /// </summary>
    public static TypeReference SelfInstance(TypeDefinition type) =>
        Instantiate(type, type.GenericParameters);

    /// <summary><paramref name="type"/> instantiated over <paramref name="arguments"/>, or the type itself when there are none.</summary>
    public static TypeReference Instantiate(TypeReference type, IEnumerable<TypeReference> arguments)
    {
        var instance = new GenericInstanceType(type);
        foreach (var argument in arguments)
            instance.GenericArguments.Add(argument);
        return instance.HasGenericArguments ? instance : type;
    }

    /// <summary><paramref name="type"/> without its outer custom modifiers (<c>void modreq(IsExternalInit)</c> is void).</summary>
    public static TypeReference WithoutModifiers(TypeReference type) =>
        type is IModifierType modified ? WithoutModifiers(modified.ElementType) : type;

    /// <summary>
    /// The definition behind <paramref name="type"/> or its generic instantiation, if this module
    /// defines it (types of other modules are never loaded); null otherwise.
    /// </summary>
    public static TypeDefinition? DefinitionInModule(TypeReference type) =>
        type as TypeDefinition ?? (type as GenericInstanceType)?.ElementType as TypeDefinition;

    /// <summary>
    /// A type named by a TypeRef token (newobj's declaring type, the operand of box, ldobj,
    /// unbox.any) carries no value-type bit: only signatures say VALUETYPE or CLASS, and Cecil
    /// takes such a reference for a class until told otherwise. A spill local or continuation field
    /// of that type would then be declared as a class, which the runtime refuses ("value type
    /// mismatch"). This looks up the definition, in its own assembly, and records the bit; false
    /// when that assembly cannot be found.
    /// </summary>
    public static bool TryLearnValueType(TypeReference type)
    {
        var element = type is GenericInstanceType instance ? instance.ElementType : type;
        // Module is null for the analysis's own markers (StackTypes.NullType), which name no type.
        if (element.GetType() != typeof(TypeReference) || element.IsValueType || element.Module is null)
            return true;
        TypeDefinition? definition;
        try
        {
            definition = element.Resolve();
        }
        catch (AssemblyResolutionException)
        {
            return false;
        }
        if (definition is null)
            return false;
        if (definition.IsValueType)
        {
            element.IsValueType = true;
            type.IsValueType = true;
        }
        return true;
    }

    /// <summary>
    /// Whether a value of <paramref name="type"/> is an object reference, which IL may compare
    /// with beq/bne.un: an array, or a class or interface whose definition says so (a type named
    /// only by a TypeRef may be a struct, see <see cref="TryLearnValueType"/>). False for generic
    /// parameters, pointers and anything that cannot be resolved.
    /// </summary>
    public static bool IsObjectReference(TypeReference type)
    {
        switch (type)
        {
            case ArrayType:
                return true;
            case GenericInstanceType instance:
                return IsObjectReference(instance.ElementType);
            case TypeSpecification or GenericParameter:
                return false;
        }
        if (type.IsValueType)
            return false;
        try
        {
            return type.Resolve() is { IsValueType: false };
        }
        catch (AssemblyResolutionException)
        {
            return false;
        }
    }

    /// <summary>GenericParameterAttributes.AllowByRefLike (.NET 9), which Cecil 0.11 does not name.</summary>
    private const GenericParameterAttributes AllowByRefLike = (GenericParameterAttributes)0x20;

    /// <summary>Whether <paramref name="type"/> is a ref struct (Span&lt;T&gt;, an interpolated string handler), which can live on the stack only.</summary>
    public static bool IsByRefLike(TypeReference type)
    {
        // A type parameter that `allows ref struct` (C# 13) may be one.
        if (type is GenericParameter parameter)
            return (parameter.Attributes & AllowByRefLike) != 0;
        if (!type.IsValueType)
            return false;
        try
        {
            return type.Resolve()?.CustomAttributes.Any(a => a.AttributeType.FullName == "System.Runtime.CompilerServices.IsByRefLikeAttribute") == true;
        }
        catch (AssemblyResolutionException)
        {
            return false; // its assembly is not at hand: taken for an ordinary struct
        }
    }

    /// <summary>
    /// A key that tells two types apart where their full names may not: each named type carries the
    /// assembly it is declared in (two referenced assemblies may both define <c>Shared.Thing</c>),
    /// a generic parameter is named by its kind and position (a method's <c>T</c> and its
    /// type's <c>T</c> are different types, and a class may share a type parameter's name), and an
    /// array by its rank alone (metadata may spell <c>int[,]</c> with lower bounds, <c>int[0...,0...]</c>).
    /// </summary>
    public static string Identity(TypeReference type) => Key(type, withAssembly: true);

    /// <summary>
    /// <see cref="Identity"/> without the assemblies, for matching one method's signature against
    /// another's (an override's against its base method's): the two may be read through different
    /// references to one assembly (a base compiled against netstandard), and C# never lets a
    /// signature tell two same-named types apart.
    /// </summary>
    public static string SignatureIdentity(TypeReference type) => Key(type, withAssembly: false);

    private static string Key(TypeReference type, bool withAssembly) => type switch
    {
        GenericParameter parameter => (parameter.Type == GenericParameterType.Method ? "!!" : "!") + parameter.Position,
        GenericInstanceType instance => $"{Key(instance.ElementType, withAssembly)}<{string.Join(",", instance.GenericArguments.Select(a => Key(a, withAssembly)))}>",
        ArrayType array => $"{Key(array.ElementType, withAssembly)}[{new string(',', array.Rank - 1)}]",
        ByReferenceType byRef => Key(byRef.ElementType, withAssembly) + "&",
        PointerType pointer => Key(pointer.ElementType, withAssembly) + "*",
        IModifierType modified => Key(modified.ElementType, withAssembly),
        PinnedType pinned => Key(pinned.ElementType, withAssembly) + " pinned",
        _ => withAssembly ? $"[{AssemblyOf(type)}]{type.FullName}" : type.FullName,
    };

    private static string? AssemblyOf(TypeReference type) => type.Scope switch
    {
        AssemblyNameReference assembly => assembly.Name,
        ModuleDefinition module => module.Assembly?.Name.Name,
        var scope => scope?.Name,
    };

    /// <summary>
    /// The primitive type a value of <paramref name="type"/> is on the stack: the type itself for a
    /// primitive number, an enum's underlying type; null for anything else (or an enum whose
    /// assembly is not at hand).
    /// </summary>
    public static TypeReference? NumericType(TypeReference type)
    {
        if (type.MetadataType is >= MetadataType.Boolean and <= MetadataType.Double or MetadataType.IntPtr or MetadataType.UIntPtr)
            return type;
        if (type.MetadataType != MetadataType.ValueType && !(type.GetType() == typeof(TypeReference) && !type.IsValueType))
            return null;
        try
        {
            return type.Resolve() is { IsEnum: true } definition && definition.Fields.FirstOrDefault(field => !field.IsStatic) is { } value
                ? value.FieldType
                : null;
        }
        catch (AssemblyResolutionException)
        {
            return null;
        }
    }
}
