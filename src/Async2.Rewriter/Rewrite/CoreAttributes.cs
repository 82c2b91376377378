using Mono.Cecil;

namespace Async2.Rewriter.Rewrite;

/// <summary>Parameterless core-library attributes the rewriter puts on what it adds.</summary>
internal static class CoreAttributes
{
    /// <summary>Marks added types and methods, which reflection-based tools then treat as compiler plumbing.</summary>
    public static CustomAttribute CompilerGenerated(ModuleDefinition module) =>
        Create(module, "System.Runtime.CompilerServices", "CompilerGeneratedAttribute");

    /// <summary>Keeps dispatch plumbing out of exception stack traces.</summary>
    public static CustomAttribute StackTraceHidden(ModuleDefinition module) =>
        Create(module, "System.Diagnostics", "StackTraceHiddenAttribute");

    private static CustomAttribute Create(ModuleDefinition module, string @namespace, string name)
    {
        var type = new TypeReference(@namespace, name, module, module.TypeSystem.CoreLibrary);
        return new CustomAttribute(new MethodReference(".ctor", module.TypeSystem.Void, type) { HasThis = true });
    }
}
