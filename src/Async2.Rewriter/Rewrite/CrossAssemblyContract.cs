using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// What a rewritten assembly promises rewritten assemblies that call it (docs/design.md, "Calls
/// across assemblies"). Version 3:
/// <list type="bullet">
/// <item>the assembly carries <c>[assembly: Async2.Runtime.RewrittenByAsync2(3, "&lt;Async2 version&gt;")]</c>;</item>
/// <item>it holds <c>&lt;Async2&gt;Contract::V3_&lt;MVID&gt;(Continuation)</c>, an empty static method
/// named after this build (a rewrite keeps the compiler's MVID), which callers probe at run time;
/// its parameter names Async2.Runtime, so the probe also fails where the callee runs with another
/// copy of Async2.Runtime than the caller (a plugin's AssemblyLoadContext that loaded its own);</item>
/// <item>a rewritten M carries <c>[AsyncStateMachine(typeof(C))]</c>, and its variant is C's static
/// method named M with M's <c>this</c>, M's parameters, <c>ref AsyncChain</c> and C (VariantMap);</item>
/// <item>a method with a virtual or interface entry has it on its own type, named <c>&lt;M&gt;v__Async2</c>,
/// with M's parameters, <c>ref AsyncChain</c> and <c>Continuation</c> (VirtualEntries, InterfaceEntries).</item>
/// </list>
/// Any change to those names or signatures, or to what a variant or entry does with the chain,
/// must bump <see cref="Version"/>: callers then see another contract and take the Task path.
/// Version 2 (Async2 0.3): a variant's context scope records the leaf's SynchronizationContext in
/// the chain when it puts back its caller's while suspending (ThunkScope.ExitVariant), and leaves
/// its restoring to a Task thunk that says it does so (ThunkScope.EnterVariant).
/// Version 3 (Async2 0.4): a frame's state and flags are one field (Continuation.StateAndFlags) and
/// AsyncChain is a ref struct. The version is also the ABI between rewritten code and
/// Async2.Runtime: code rewritten under another version cannot run with this runtime at all
/// (<see cref="Analysis.OtherAsync2Versions"/>).
/// </summary>
internal static class CrossAssemblyContract
{
    public const int Version = 3;
    public const string AttributeName = "RewrittenByAsync2Attribute";
    public const string MarkerType = "<Async2>Contract";

    /// <summary>The Async2 version written into the attribute (informational: the contract version decides).</summary>
    public static string Async2Version => typeof(CrossAssemblyContract).Assembly.GetName().Version!.ToString();

    private static string MarkerName(ModuleDefinition module) => $"V{Version}_{module.Mvid:N}";

    /// <summary>Adds the attribute and the build marker to a module being rewritten.</summary>
    public static void Mark(ModuleDefinition module, ModuleDefinition runtime)
    {
        var attribute = runtime.GetType(RuntimeNames.Namespace, AttributeName)
            ?? throw new InvalidOperationException($"Async2.Runtime has no type {AttributeName}: the runtime and rewriter versions differ.");
        var mark = new CustomAttribute(module.ImportReference(attribute.Methods.Single(m => m.IsConstructor && !m.IsStatic)));
        mark.ConstructorArguments.Add(new CustomAttributeArgument(module.TypeSystem.Int32, Version));
        mark.ConstructorArguments.Add(new CustomAttributeArgument(module.TypeSystem.String, Async2Version));
        module.Assembly.CustomAttributes.Add(mark);

        var type = new TypeDefinition("", MarkerType,
            TypeAttributes.NotPublic | TypeAttributes.Abstract | TypeAttributes.Sealed | TypeAttributes.Class, module.TypeSystem.Object);
        type.CustomAttributes.Add(CoreAttributes.CompilerGenerated(module));
        var marker = new MethodDefinition(MarkerName(module), MethodAttributes.Assembly | MethodAttributes.Static | MethodAttributes.HideBySig, module.TypeSystem.Void);
        var continuation = runtime.GetType(RuntimeNames.Namespace, RuntimeNames.Continuation)
            ?? throw new InvalidOperationException($"Async2.Runtime has no type {RuntimeNames.Continuation}: the runtime and rewriter versions differ.");
        marker.Parameters.Add(new ParameterDefinition("sameRuntime", ParameterAttributes.None, module.ImportReference(continuation)));
        marker.Body.GetILProcessor().Emit(OpCodes.Ret);
        type.Methods.Add(marker);
        module.Types.Add(type);
    }

    /// <summary>
    /// The contract version and Async2 version <paramref name="module"/> was rewritten under (0 and
    /// "an older version" when it references Async2.Runtime without saying), or null if Async2 did
    /// not rewrite it.
    /// </summary>
    public static (int Contract, string Async2Version)? RewrittenUnder(ModuleDefinition module)
    {
        var mark = module.Assembly.CustomAttributes.FirstOrDefault(a =>
            a.AttributeType.Namespace == RuntimeNames.Namespace && a.AttributeType.Name == AttributeName && a.ConstructorArguments.Count == 2);
        if (mark is not null)
            return (mark.ConstructorArguments[0].Value as int? ?? 0, mark.ConstructorArguments[1].Value as string ?? "an older version");
        return module.AssemblyReferences.Any(reference => reference.Name == RuntimeNames.RuntimeAssembly) ? (0, "an older version") : null;
    }

    /// <summary>The build marker of <paramref name="module"/> if it was rewritten under this contract version; null otherwise.</summary>
    public static MethodDefinition? Marker(ModuleDefinition module)
    {
        if (RewrittenUnder(module)?.Contract != Version)
            return null;
        return module.GetType(MarkerType)?.Methods.FirstOrDefault(m => m.Name == MarkerName(module) && m.IsStatic
            && m.Parameters is [{ ParameterType: { Namespace: RuntimeNames.Namespace, Name: RuntimeNames.Continuation } }]);
    }
}
