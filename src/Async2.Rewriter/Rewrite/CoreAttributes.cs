using Mono.Cecil;
using Mono.Cecil.Rocks;

namespace Async2.Rewriter.Rewrite;

/// <summary>Core-library attributes the rewriter puts on what it adds or changes.</summary>
internal static class CoreAttributes
{
    /// <summary>Marks added types and methods, which reflection-based tools then treat as compiler plumbing.</summary>
    public static CustomAttribute CompilerGenerated(ModuleDefinition module) =>
        Create(module, "System.Runtime.CompilerServices", "CompilerGeneratedAttribute");

    /// <summary>Keeps dispatch plumbing out of exception stack traces.</summary>
    public static CustomAttribute StackTraceHidden(ModuleDefinition module) =>
        Create(module, "System.Diagnostics", "StackTraceHiddenAttribute");

    /// <summary>[AsyncStateMachine(typeof(<paramref name="stateMachine"/>))], as classic async puts on its methods.</summary>
    public static CustomAttribute AsyncStateMachine(ModuleDefinition module, TypeDefinition stateMachine) =>
        Create(module, "System.Runtime.CompilerServices", "AsyncStateMachineAttribute", (SystemType(module), stateMachine));

    /// <summary>
    /// [DynamicDependency("M(...)", typeof(Owner))]: whatever keeps the attributed member keeps
    /// <paramref name="target"/> too, for the trimmer and the NativeAOT compiler. Two shapes their
    /// signature parser cannot match (IL2037, and the method trimmed away with its
    /// [AsyncStateMachine], so stack traces name the variant) are named another way: a parameter
    /// type nested in a generic type with no type parameter of its own (ILLink writes
    /// <c>Catalog&lt;T&gt;.Entry</c> as <c>Catalog{`0}.Ent{}</c>)
    /// by the method's name alone, which keeps its overloads too; a name holding a character that
    /// ends a name there (an explicit implementation of <c>IMap&lt;K, V&gt;.Get</c>) by the owner's
    /// methods of the target's visibility.
    /// </summary>
    public static CustomAttribute DynamicDependency(ModuleDefinition module, MethodDefinition target)
    {
        CustomAttribute Dependency((TypeReference Type, object Value) member) =>
            Create(module, "System.Diagnostics.CodeAnalysis", "DynamicDependencyAttribute", member, (SystemType(module), target.DeclaringType));
        var name = target.Name.Replace('.', '#');
        if (name.IndexOfAny(SignatureNameDelimiters) >= 0)
            return Dependency((DynamicallyAccessedMemberTypes(module), target.IsPublic ? PublicMethods : NonPublicMethods));
        if (target.Parameters.Any(parameter => NamesTypeNestedInGenericType(parameter.ParameterType)))
            return Dependency((module.TypeSystem.String, name));
        // The attribute names a member as a documentation comment ID does, without "M:" and the type.
        var owner = DocCommentId.GetDocCommentId(target.DeclaringType)["T:".Length..] + ".";
        var signature = DocCommentId.GetDocCommentId(target)["M:".Length..];
        if (!signature.StartsWith(owner, StringComparison.Ordinal))
            throw new InvalidOperationException($"unexpected documentation ID {signature} for a member of {owner}");
        // Documentation IDs write a name's angle brackets as braces, which the trimmer then reads as
        // generic arguments: compiler-generated names (local functions, <Main>$) keep theirs.
        var member = signature[owner.Length..];
        int nameEnd = member.IndexOfAny(['(', '`']) is >= 0 and var end ? end : member.Length;
        return Dependency((module.TypeSystem.String, name + member[nameEnd..]));
    }

    /// <summary>The characters that end a name in the trimmer's signature parser (its DocumentationSignatureParser).</summary>
    private static readonly char[] SignatureNameDelimiters = [':', '.', '(', ')', '{', '}', '[', ']', ',', '\'', '@', '*', '`', '~'];

    // DynamicallyAccessedMemberTypes.PublicMethods and NonPublicMethods.
    private const int PublicMethods = 0x0008;
    private const int NonPublicMethods = 0x0010;

    private static TypeReference DynamicallyAccessedMemberTypes(ModuleDefinition module) =>
        new TypeReference("System.Diagnostics.CodeAnalysis", "DynamicallyAccessedMemberTypes", module, module.TypeSystem.CoreLibrary, valueType: true);

    /// <summary>
    /// Whether <paramref name="type"/> names, anywhere in it, a type nested in a generic type that
    /// adds no type parameter of its own: an instance of it, whose name has no arity suffix.
    /// </summary>
    private static bool NamesTypeNestedInGenericType(TypeReference type) => type switch
    {
        GenericInstanceType instance => instance.ElementType is { IsNested: true } nested && !nested.Name.Contains('`')
            || instance.GenericArguments.Any(NamesTypeNestedInGenericType),
        TypeSpecification specification => NamesTypeNestedInGenericType(specification.ElementType),
        _ => false,
    };

    /// <summary>
    /// Gives <paramref name="copy"/> (a variant's parameter, a continuation's or variant's generic
    /// parameter) the [DynamicallyAccessedMembers] of the <paramref name="original"/> it stands for.
    /// Callers in the assembly call the variants, not M: without the annotation the trimmer and
    /// the NativeAOT compiler would not keep the members a <c>typeof(T)</c> passed in needs.
    /// The attribute is the one the original names (it may be a polyfill), imported into
    /// <paramref name="module"/>, the copy's, which may be another than the original's (a bridge to
    /// another assembly's method).
    /// </summary>
    public static void CopyTrimmingAnnotations(ICustomAttributeProvider original, ICustomAttributeProvider copy, ModuleDefinition module)
    {
        foreach (var attribute in TrimmingAnnotations(original))
            copy.CustomAttributes.Add(new CustomAttribute(module.ImportReference(attribute.Constructor), attribute.GetBlob()));
    }

    /// <summary>A parameter standing for <paramref name="original"/> in a method of <paramref name="module"/>, with its trimming annotations.</summary>
    public static ParameterDefinition AnnotatedCopy(ParameterDefinition original, ParameterAttributes attributes, TypeReference type, ModuleDefinition module)
    {
        var copy = new ParameterDefinition(original.Name, attributes, type);
        CopyTrimmingAnnotations(original, copy, module);
        return copy;
    }

    public static bool HasTrimmingAnnotations(ICustomAttributeProvider provider) => TrimmingAnnotations(provider).Any();

    private static IEnumerable<CustomAttribute> TrimmingAnnotations(ICustomAttributeProvider provider) =>
        provider.HasCustomAttributes
            ? provider.CustomAttributes.Where(a => a.AttributeType.Namespace == "System.Diagnostics.CodeAnalysis" && a.AttributeType.Name == "DynamicallyAccessedMembersAttribute")
            : [];

    /// <summary>[UnconditionalSuppressMessage(category, checkId, Justification = justification)], which the trimmer honours in every build.</summary>
    public static CustomAttribute UnconditionalSuppressMessage(ModuleDefinition module, string category, string checkId, string justification)
    {
        var attribute = Create(module, "System.Diagnostics.CodeAnalysis", "UnconditionalSuppressMessageAttribute",
            (module.TypeSystem.String, category), (module.TypeSystem.String, checkId));
        attribute.Properties.Add(new CustomAttributeNamedArgument("Justification", new CustomAttributeArgument(module.TypeSystem.String, justification)));
        return attribute;
    }

    private static TypeReference SystemType(ModuleDefinition module) =>
        new("System", "Type", module, module.TypeSystem.CoreLibrary);

    /// <summary>A core-library attribute, constructed with <paramref name="arguments"/> (their parameter types and values).</summary>
    private static CustomAttribute Create(ModuleDefinition module, string @namespace, string name, params (TypeReference Type, object Value)[] arguments)
    {
        var type = new TypeReference(@namespace, name, module, module.TypeSystem.CoreLibrary);
        var constructor = new MethodReference(".ctor", module.TypeSystem.Void, type) { HasThis = true };
        var result = new CustomAttribute(constructor);
        foreach (var (parameterType, value) in arguments)
        {
            constructor.Parameters.Add(new ParameterDefinition(parameterType));
            result.ConstructorArguments.Add(new CustomAttributeArgument(parameterType, value));
        }
        return result;
    }
}
