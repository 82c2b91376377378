using Mono.Cecil;

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
    public static CustomAttribute AsyncStateMachine(ModuleDefinition module, TypeDefinition stateMachine)
    {
        var attribute = new TypeReference("System.Runtime.CompilerServices", "AsyncStateMachineAttribute", module, module.TypeSystem.CoreLibrary);
        var systemType = new TypeReference("System", "Type", module, module.TypeSystem.CoreLibrary);
        var constructor = new MethodReference(".ctor", module.TypeSystem.Void, attribute) { HasThis = true };
        constructor.Parameters.Add(new ParameterDefinition(systemType));
        var result = new CustomAttribute(constructor);
        result.ConstructorArguments.Add(new CustomAttributeArgument(systemType, stateMachine));
        return result;
    }

    private static CustomAttribute Create(ModuleDefinition module, string @namespace, string name)
    {
        var type = new TypeReference(@namespace, name, module, module.TypeSystem.CoreLibrary);
        return new CustomAttribute(new MethodReference(".ctor", module.TypeSystem.Void, type) { HasThis = true });
    }
}
