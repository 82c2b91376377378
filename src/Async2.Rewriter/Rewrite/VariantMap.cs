using Mono.Cecil;

namespace Async2.Rewriter.Rewrite;

/// <summary>What the rewriter adds for one runtime-async method M.</summary>
/// <param name="Original">M, which becomes the Task thunk.</param>
/// <param name="Variant">M', the async2 variant: M's parameters, then <c>ref AsyncChain chain</c> and the continuation to resume (null on a call).</param>
/// <param name="Continuation">The class holding M's suspended frame.</param>
/// <param name="Shape">How M's Task type wraps its result.</param>
internal sealed record VariantDeclaration(MethodDefinition Original, MethodDefinition Variant, TypeDefinition Continuation, TaskShape Shape);

/// <summary>The Task-like return types an async method can have, and the result each wraps.</summary>
internal sealed record TaskShape(string ThunkSuffix, TypeReference Result)
{
    public bool HasResult => Result.MetadataType != MetadataType.Void;

    /// <summary>Task, Task&lt;T&gt;, ValueTask or ValueTask&lt;T&gt;; null for anything else.</summary>
    public static TaskShape? Of(MethodDefinition method)
    {
        var type = method.ReturnType;
        var element = type is GenericInstanceType generic ? generic.ElementType : type;
        if (element.Namespace != "System.Threading.Tasks")
            return null;
        var result = type is GenericInstanceType instance ? instance.GenericArguments[0] : method.Module.TypeSystem.Void;
        return element.Name switch
        {
            "Task" or "Task`1" => new TaskShape("Task", result),
            "ValueTask" or "ValueTask`1" => new TaskShape("ValueTask", result),
            _ => null,
        };
    }
}

/// <summary>The declarations of every method being rewritten in a module, by original method.</summary>
internal sealed class VariantMap
{
    private readonly Dictionary<MethodDefinition, VariantDeclaration> _byOriginal = new();

    public IEnumerable<VariantDeclaration> All => _byOriginal.Values;

    public MethodDefinition this[MethodDefinition original] => _byOriginal[original].Variant;

    public void Add(VariantDeclaration declaration) => _byOriginal.Add(declaration.Original, declaration);

    /// <summary>The original method behind a call operand, if it is being rewritten in this module.</summary>
    public MethodDefinition? RewrittenTarget(MethodReference reference) =>
        reference is MethodDefinition definition && _byOriginal.ContainsKey(definition) ? definition : null;

    /// <summary>
    /// Declares M' and M's continuation class (bodies come later, so that every method's variant
    /// exists before any body refers to it).
    /// </summary>
    public static VariantDeclaration Declare(MethodDefinition original, TaskShape shape, RuntimeReferences runtime, int ordinal)
    {
        var owner = original.DeclaringType;
        var continuationBase = runtime.ContinuationBase(shape.Result);
        var continuation = new TypeDefinition("", $"<{original.Name}>d__Async2_{ordinal}",
            TypeAttributes.NestedPrivate | TypeAttributes.Sealed | TypeAttributes.Class | TypeAttributes.BeforeFieldInit,
            continuationBase);
        owner.NestedTypes.Add(continuation);

        var access = original.IsPrivate ? MethodAttributes.Private : MethodAttributes.Assembly;
        var attributes = access | MethodAttributes.HideBySig | (original.IsStatic ? MethodAttributes.Static : 0);
        var variant = new MethodDefinition(original.Name, attributes, shape.Result)
        {
            ImplAttributes = original.ImplAttributes & ~(MethodImplAttributes)RuntimeNames.AsyncImplFlag,
        };
        foreach (var parameter in original.Parameters)
            variant.Parameters.Add(new ParameterDefinition(parameter.Name, parameter.Attributes & (ParameterAttributes.In | ParameterAttributes.Out), parameter.ParameterType));
        variant.Parameters.Add(new ParameterDefinition("chain", ParameterAttributes.None, runtime.ChainByRef));
        variant.Parameters.Add(new ParameterDefinition("resume", ParameterAttributes.None, continuation));
        owner.Methods.Add(variant);
        return new VariantDeclaration(original, variant, continuation, shape);
    }
}
