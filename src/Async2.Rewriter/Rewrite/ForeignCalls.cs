using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Mono.Cecil.Rocks;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Awaited calls into other assemblies that Async2 rewrote under the same contract
/// (<see cref="CrossAssemblyContract"/>). Such a call becomes a direct call to a <em>bridge</em>
/// in this module, one per callee and call kind, which has a variant's signature:
/// <code>
/// static R &lt;M&gt;x__Async2_N&lt;owner's and M's type parameters&gt;([Owner this,] args, ref AsyncChain chain, Continuation unused)
/// {
///     if (&lt;Async2&gt;ForeignCalls.&lt;Lib&gt;Link.Linked)                  // static readonly: a constant once tiered up
///         return &lt;M&gt;f__Async2_N(this, args, ref chain);              // the forwarder: Cont::M'(..., null) or callvirt &lt;M&gt;v__Async2
///     return OverrideDispatch.Await(this.M(args), ref chain);          // the callee is another build: its Task method
/// }
/// </code>
/// The guard is set once per callee assembly, at the first call into it, by probing the build
/// marker the caller saw at rewrite time (Async2.Runtime's CrossAssembly.Links). Only the
/// forwarder names the callee's variant or entry, so if the callee was replaced, the one method that would fail to JIT
/// (CoreCLR throws MissingMethodException compiling a method naming a missing member) is never
/// called. Bridge and forwarder are inlined by the JIT, so a linked call costs what a call within
/// the assembly costs. The caller is given <c>[IgnoresAccessChecksTo("Lib")]</c>: variants,
/// entries and their continuation classes stay non-public, so reflection over the callee lists
/// what it listed before.
/// </summary>
internal sealed class ForeignCalls(ModuleDefinition module, RuntimeReferences runtime)
{
    private const string HolderName = "<Async2>ForeignCalls";
    private const string IgnoresAccessChecksTo = "IgnoresAccessChecksToAttribute";
    private const string CompilerServices = "System.Runtime.CompilerServices";

    private readonly Dictionary<string, MethodDefinition?> _targets = new();
    private readonly Dictionary<string, MethodDefinition> _bridges = new();
    private readonly Dictionary<string, FieldDefinition> _guards = new();
    private TypeDefinition? _holder;

    /// <summary>The callees reached through bridges, for the report.</summary>
    public IReadOnlyList<string> Callees => [.. _bridges.Keys.Order(StringComparer.Ordinal)];

    /// <summary>
    /// The method of another rewritten assembly that <paramref name="call"/> (naming
    /// <paramref name="element"/>) can reach through a bridge, or null: the callee's assembly
    /// is not rewritten under this contract, or the callee has no variant or entry to call.
    /// </summary>
    public MethodDefinition? Target(Instruction call, MethodReference element)
    {
        var returned = element.ReturnType is GenericInstanceType generic ? generic.ElementType : element.ReturnType;
        if (returned.Namespace != "System.Threading.Tasks")
            return null;
        var key = $"{call.OpCode.Code} {element.FullName}";
        if (!_targets.TryGetValue(key, out var target))
            _targets[key] = target = Find(element, call.OpCode.Code == Code.Callvirt);
        return target;
    }

    private MethodDefinition? Find(MethodReference element, bool isVirtualCall)
    {
        MethodDefinition? callee;
        try
        {
            callee = element.Resolve();
        }
        catch (AssemblyResolutionException)
        {
            return null;
        }
        // A struct's this is a managed pointer into the caller: left to the Task path.
        if (callee is null || callee.Module == module || callee.DeclaringType.IsValueType || TaskShape.Of(callee) is null
            || element.DeclaringType.GetElementType().FullName != callee.DeclaringType.FullName
            || (isVirtualCall && InterfaceEntries.HasVariance(callee.DeclaringType))
            || CrossAssemblyContract.Marker(callee.Module) is null)
            return null;
        return (VirtualEntries.Dispatches(callee, isVirtualCall) ? Entry(callee) : Variant(callee)?.Variant) is null ? null : callee;
    }


    /// <summary>The callee's variant, found through the [AsyncStateMachine] naming its continuation class.</summary>
    private static VariantDeclaration? Variant(MethodDefinition callee)
    {
        var stateMachine = callee.CustomAttributes
            .FirstOrDefault(a => a.AttributeType.FullName == $"{CompilerServices}.AsyncStateMachineAttribute")
            ?.ConstructorArguments[0].Value as TypeReference;
        var continuation = stateMachine is null ? null : callee.DeclaringType.NestedTypes.FirstOrDefault(t => t.Name == stateMachine.Name);
        var variant = continuation?.Methods.FirstOrDefault(m => m.IsStatic && m.Name == callee.Name
            && m.Parameters.Count == callee.Parameters.Count + (callee.IsStatic ? 2 : 3)
            && m.Parameters[^2].ParameterType.FullName == $"{RuntimeNames.Namespace}.{RuntimeNames.AsyncChain}&"
            && m.Parameters[^1].ParameterType.GetElementType().FullName == continuation.FullName);
        return variant is null ? null : new VariantDeclaration(callee, variant, continuation!, TaskShape.Of(callee)!);
    }

    /// <summary>
    /// What a call through the callee's virtual or interface entry calls, declared on its own type:
    /// a class's entry, or the static guard beside an interface's (InterfaceEntries.DeclareGuard).
    /// </summary>
    private static MethodDefinition? Entry(MethodDefinition callee)
    {
        bool throughGuard = callee.DeclaringType.IsInterface;
        int before = throughGuard ? 1 : 0;
        return callee.DeclaringType.Methods.FirstOrDefault(m => (throughGuard
                ? m.Name == $"<{callee.Name}>p__Async2" && m.IsStatic
                : m.Name == $"<{callee.Name}>v__Async2" && m.IsVirtual && !m.IsStatic)
            && m.GenericParameters.Count == callee.GenericParameters.Count
            && m.Parameters.Count == before + callee.Parameters.Count + 2
            && m.Parameters.Skip(before).Take(callee.Parameters.Count).Select(p => TypeResolution.SignatureIdentity(p.ParameterType))
                .SequenceEqual(callee.Parameters.Select(p => TypeResolution.SignatureIdentity(p.ParameterType))));
    }

    /// <summary>
    /// The bridge <paramref name="call"/> must call instead, instantiated over the owner's and the
    /// method's type arguments as the call names them (<c>Repo&lt;int&gt;::GetAsync&lt;string&gt;</c>
    /// calls <c>&lt;GetAsync&gt;x__Async2_0&lt;int, string&gt;</c>).
    /// </summary>
    public MethodReference BridgeCalledBy(Instruction call, MethodDefinition target)
    {
        var key = $"{call.OpCode.Code} {target.FullName}";
        if (!_bridges.TryGetValue(key, out var bridge))
            _bridges[key] = bridge = DeclareBridge(target, call.OpCode.Code == Code.Callvirt);
        var operand = (MethodReference)call.Operand;
        var arguments = (operand.DeclaringType is GenericInstanceType owner ? owner.GenericArguments : [])
            .Concat(operand is GenericInstanceMethod method ? method.GenericArguments : []).ToList();
        return GenericContext.MethodOn(bridge, bridge.DeclaringType, arguments);
    }

    private MethodDefinition DeclareBridge(MethodDefinition callee, bool isVirtualCall)
    {
        var holder = Holder();
        int ordinal = _bridges.Count;
        var bridge = DeclareLikeVariant(holder, $"<{callee.Name}>x__Async2_{ordinal}", callee, withContinuation: true);
        var forwarder = DeclareLikeVariant(holder, $"<{callee.Name}>f__Async2_{ordinal}", callee, withContinuation: false);
        EmitForwarder(forwarder, callee, isVirtualCall);

        var il = bridge.Body.GetILProcessor();
        var taskPath = Instruction.Create(OpCodes.Nop);
        il.Emit(OpCodes.Ldsfld, Guard(callee.Module));
        il.Emit(OpCodes.Brfalse, taskPath);
        foreach (var parameter in bridge.Parameters.SkipLast(1))
            il.Emit(OpCodes.Ldarg, parameter);
        il.Emit(OpCodes.Call, GenericContext.MethodOn(forwarder, forwarder.DeclaringType, [.. bridge.GenericParameters]));
        il.Emit(OpCodes.Ret);
        il.Append(taskPath);
        // Another build of the callee's assembly may have made it a method that is not async, which
        // binary compatibility allows, and then nothing puts back a context it changes: the caller
        // counted on the variant to (ContextScopeEmitter) and may have no scope of its own.
        var taskType = InMethod(callee.ReturnType, bridge, callee);
        var scope = new VariableDefinition(runtime.ThunkScope);
        var task = new VariableDefinition(taskType);
        bridge.Body.Variables.Add(scope);
        bridge.Body.Variables.Add(task);
        il.Emit(OpCodes.Call, runtime.ThunkScopeEnter);
        il.Emit(OpCodes.Stloc, scope);
        foreach (var parameter in bridge.Parameters.SkipLast(2))
            il.Emit(OpCodes.Ldarg, parameter);
        var taskMethod = module.ImportReference(GenericContext.MethodOn(callee, OwnerIn(bridge, callee), MethodArgumentsIn(bridge, callee)), bridge);
        // As the caller called it: callvirt reaches any override, call (base.M()) exactly M.
        il.Emit(callee.IsStatic ? OpCodes.Call : isVirtualCall ? OpCodes.Callvirt : OpCodes.Call, taskMethod);
        il.Emit(OpCodes.Stloc, task);
        il.Emit(OpCodes.Ldloca, scope);
        il.Emit(OpCodes.Call, runtime.ThunkScopeExit);
        il.Emit(OpCodes.Ldloc, task);
        il.Emit(OpCodes.Ldarg, bridge.Parameters[^2]);
        il.Emit(OpCodes.Call, runtime.AwaitOverride(taskType));
        il.Emit(OpCodes.Ret);
        bridge.Body.OptimizeMacros();
        return bridge;
    }

    /// <summary><c>return Cont::M'([this,] args, ref chain, null);</c>, or through the entry for a virtual call that may reach an override.</summary>
    private void EmitForwarder(MethodDefinition forwarder, MethodDefinition callee, bool isVirtualCall)
    {
        // The JIT compiles the forwarder only when the guard says the callee is the build it names.
        forwarder.ImplAttributes |= MethodImplAttributes.AggressiveInlining;
        var owner = OwnerIn(forwarder, callee);
        var methodArguments = MethodArgumentsIn(forwarder, callee);
        bool throughEntry = VirtualEntries.Dispatches(callee, isVirtualCall);
        var target = throughEntry
            ? GenericContext.MethodOn(Entry(callee)!, owner, methodArguments)
            : Variant(callee)!.VariantOn(owner, methodArguments);
        var il = forwarder.Body.GetILProcessor();
        foreach (var parameter in forwarder.Parameters)
            il.Emit(OpCodes.Ldarg, parameter);
        il.Emit(OpCodes.Ldnull);
        il.Emit(target.HasThis ? OpCodes.Callvirt : OpCodes.Call, module.ImportReference(target, forwarder));
        il.Emit(OpCodes.Ret);
        forwarder.Body.OptimizeMacros();
    }

    /// <summary>
    /// A static method on the holder with the callee's owner's and own type parameters, in that
    /// order, and the callee's variant parameters (<c>this</c> explicit) in those terms.
    /// </summary>
    private MethodDefinition DeclareLikeVariant(TypeDefinition holder, string name, MethodDefinition callee, bool withContinuation)
    {
        var method = new MethodDefinition(name, MethodAttributes.Assembly | MethodAttributes.Static | MethodAttributes.HideBySig, module.TypeSystem.Void)
        {
            ImplAttributes = MethodImplAttributes.AggressiveInlining,
        };
        holder.Methods.Add(method);
        GenericContext.CopyParameters(callee.DeclaringType.GenericParameters.Concat(callee.GenericParameters), method,
            constraint => InMethod(constraint, method, callee));
        method.ReturnType = InMethod(TaskShape.Of(callee)!.Result, method, callee);
        if (!callee.IsStatic)
            method.Parameters.Add(new ParameterDefinition("this", ParameterAttributes.None, module.ImportReference(OwnerIn(method, callee), method)));
        foreach (var parameter in callee.Parameters)
            method.Parameters.Add(CoreAttributes.AnnotatedCopy(parameter, parameter.Attributes & (ParameterAttributes.In | ParameterAttributes.Out),
                InMethod(parameter.ParameterType, method, callee), module));
        method.Parameters.Add(new ParameterDefinition("chain", ParameterAttributes.None, runtime.ChainByRef));
        if (withContinuation)
            method.Parameters.Add(new ParameterDefinition("unused", ParameterAttributes.None, runtime.Continuation));
        method.CustomAttributes.Add(CoreAttributes.CompilerGenerated(module));
        // An exception shows the callee's frame, as the direct call within an assembly does.
        method.CustomAttributes.Add(CoreAttributes.StackTraceHidden(module));
        return method;
    }

    /// <summary>A type of the callee's signature (in terms of its owner's <c>!i</c> and its own <c>!!j</c>) in <paramref name="method"/>'s terms, imported.</summary>
    private TypeReference InMethod(TypeReference type, MethodDefinition method, MethodDefinition callee) =>
        module.ImportReference(Substituted(type, method, callee), method);

    private static TypeReference Substituted(TypeReference type, MethodDefinition method, MethodDefinition callee)
    {
        int ownerParameters = callee.DeclaringType.GenericParameters.Count;
        return TypeResolution.Substitute(type, parameter => parameter.Type == GenericParameterType.Type
            ? method.GenericParameters[parameter.Position]
            : method.GenericParameters[ownerParameters + parameter.Position]);
    }

    /// <summary>
    /// The callee's type instantiated over <paramref name="method"/>'s first type parameters, not
    /// yet imported: members built on it are imported whole, signature included.
    /// </summary>
    private static TypeReference OwnerIn(MethodDefinition method, MethodDefinition callee) =>
        Substituted(TypeResolution.SelfInstance(callee.DeclaringType), method, callee);

    private static TypeReference[] MethodArgumentsIn(MethodDefinition method, MethodDefinition callee) =>
        [.. method.GenericParameters.Skip(callee.DeclaringType.GenericParameters.Count)];

    /// <summary>The holder of bridges and of each callee assembly's guard: a static class with an unspeakable name.</summary>
    private TypeDefinition Holder()
    {
        if (_holder is null)
        {
            _holder = new TypeDefinition("", HolderName,
                TypeAttributes.NotPublic | TypeAttributes.Abstract | TypeAttributes.Sealed | TypeAttributes.Class | TypeAttributes.BeforeFieldInit,
                module.TypeSystem.Object);
            _holder.CustomAttributes.Add(CoreAttributes.CompilerGenerated(module));
            module.Types.Add(_holder);
        }
        return _holder;
    }

    /// <summary>
    /// The <c>static readonly bool</c> saying whether <paramref name="callee"/>'s assembly is the
    /// build this module was rewritten against: <c>Linked</c> of a class of its own in the holder,
    /// whose static constructor probes that assembly alone, <c>Linked = CrossAssembly.Links(Probe)</c>.
    /// So the first call into one assembly neither loads nor initializes another (its module
    /// initializer, an optional dependency that is missing), as classic code loads an assembly
    /// only when a method calling into it is compiled.
    /// </summary>
    private FieldDefinition Guard(ModuleDefinition callee)
    {
        var name = callee.Assembly.Name.Name;
        if (_guards.TryGetValue(name, out var guard))
            return guard;
        var link = new TypeDefinition("", $"<{name}>Link",
            TypeAttributes.NestedAssembly | TypeAttributes.Abstract | TypeAttributes.Sealed | TypeAttributes.Class | TypeAttributes.BeforeFieldInit,
            module.TypeSystem.Object);
        link.CustomAttributes.Add(CoreAttributes.CompilerGenerated(module));
        Holder().NestedTypes.Add(link);
        guard = new FieldDefinition("Linked", FieldAttributes.Assembly | FieldAttributes.Static | FieldAttributes.InitOnly, module.TypeSystem.Boolean);
        link.Fields.Add(guard);

        var probe = new MethodDefinition("Probe", MethodAttributes.Private | MethodAttributes.Static | MethodAttributes.HideBySig, module.TypeSystem.Void)
        {
            ImplAttributes = MethodImplAttributes.NoInlining,
        };
        var il = probe.Body.GetILProcessor();
        il.Emit(OpCodes.Ldnull);
        il.Emit(OpCodes.Call, module.ImportReference(CrossAssemblyContract.Marker(callee)!));
        il.Emit(OpCodes.Ret);
        link.Methods.Add(probe);

        var constructor = new MethodDefinition(".cctor",
            MethodAttributes.Private | MethodAttributes.Static | MethodAttributes.HideBySig | MethodAttributes.SpecialName | MethodAttributes.RTSpecialName,
            module.TypeSystem.Void);
        il = constructor.Body.GetILProcessor();
        il.Emit(OpCodes.Ldnull);
        il.Emit(OpCodes.Ldftn, probe);
        il.Emit(OpCodes.Newobj, runtime.ActionConstructor);
        il.Emit(OpCodes.Call, runtime.CrossAssemblyLinks);
        il.Emit(OpCodes.Stsfld, guard);
        il.Emit(OpCodes.Ret);
        link.Methods.Add(constructor);

        _guards.Add(name, guard);
        AllowAccessTo(name);
        return guard;
    }

    /// <summary>
    /// <c>[assembly: IgnoresAccessChecksTo("<paramref name="assembly"/>")]</c>, with the attribute
    /// declared in this module unless it already is: CoreCLR matches it by name and then lets this
    /// assembly reach the other's non-public variants, entries and continuation classes.
    /// </summary>
    private void AllowAccessTo(string assembly)
    {
        var attribute = module.GetType(CompilerServices, IgnoresAccessChecksTo) ?? DeclareIgnoresAccessChecksTo();
        var constructor = attribute.Methods.FirstOrDefault(m => m.IsConstructor && !m.IsStatic && m.Parameters.Count == 1
            && m.Parameters[0].ParameterType.MetadataType == MetadataType.String);
        if (constructor is null)
            return; // declared by the program with another shape: the probe then fails and the Task path is taken
        var allow = new CustomAttribute(constructor);
        allow.ConstructorArguments.Add(new CustomAttributeArgument(module.TypeSystem.String, assembly));
        module.Assembly.CustomAttributes.Add(allow);
    }

    private TypeDefinition DeclareIgnoresAccessChecksTo()
    {
        var type = new TypeDefinition(CompilerServices, IgnoresAccessChecksTo,
            TypeAttributes.NotPublic | TypeAttributes.Sealed | TypeAttributes.Class | TypeAttributes.BeforeFieldInit, runtime.SystemAttribute);
        type.CustomAttributes.Add(CoreAttributes.CompilerGenerated(module));
        var constructor = new MethodDefinition(".ctor",
            MethodAttributes.Public | MethodAttributes.HideBySig | MethodAttributes.SpecialName | MethodAttributes.RTSpecialName, module.TypeSystem.Void);
        constructor.Parameters.Add(new ParameterDefinition("assemblyName", ParameterAttributes.None, module.TypeSystem.String));
        var il = constructor.Body.GetILProcessor();
        il.Emit(OpCodes.Ldarg_0);
        il.Emit(OpCodes.Call, new MethodReference(".ctor", module.TypeSystem.Void, runtime.SystemAttribute) { HasThis = true });
        il.Emit(OpCodes.Ret);
        type.Methods.Add(constructor);
        module.Types.Add(type);
        return type;
    }
}
