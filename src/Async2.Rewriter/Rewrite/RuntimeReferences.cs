using Mono.Cecil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// References, imported into the module being rewritten, to the Async2.Runtime members that
/// generated code uses. Resolved once per module from the runtime assembly shipped with the rewriter.
/// </summary>
internal sealed class RuntimeReferences
{
    private readonly ModuleDefinition _module;
    private readonly TypeDefinition _awaitBridge;
    private readonly TypeDefinition _taskThunk;
    private readonly MethodDefinition _getResult;
    private readonly TypeDefinition _genericContinuation;
    private readonly TypeDefinition _overrideDispatch;

    public RuntimeReferences(ModuleDefinition module, ModuleDefinition runtime)
    {
        _module = module;
        TypeDefinition Type(string name) => runtime.GetType(RuntimeNames.Namespace, name)
            ?? throw new InvalidOperationException($"Async2.Runtime has no type {name}: the runtime and rewriter versions differ.");

        var continuation = Type(RuntimeNames.Continuation);
        _genericContinuation = Type(RuntimeNames.GenericContinuation);
        var chain = Type(RuntimeNames.AsyncChain);
        var scope = Type(RuntimeNames.ThunkScope);
        _awaitBridge = Type(RuntimeNames.AwaitBridge);
        _taskThunk = Type(RuntimeNames.TaskThunk);
        _overrideDispatch = Type(RuntimeNames.OverrideDispatch);

        Continuation = module.ImportReference(continuation);
        ContinuationCtor = module.ImportReference(continuation.Methods.Single(m => m.IsConstructor && !m.IsStatic));
        ContinuationResume = module.ImportReference(continuation.Methods.Single(m => m.Name == "Resume"));
        Next = module.ImportReference(continuation.Fields.Single(f => f.Name == "Next"));
        StateAndFlags = module.ImportReference(continuation.Fields.Single(f => f.Name == "StateAndFlags"));
        AsyncChain = module.ImportReference(chain);
        ChainByRef = new ByReferenceType(AsyncChain);
        Head = module.ImportReference(chain.Fields.Single(f => f.Name == "Head"));
        Link = module.ImportReference(chain.Methods.Single(m => m.Name == "Link"));
        LinkAwaitingCallee = module.ImportReference(chain.Methods.Single(m => m.Name == "LinkAwaitingCallee"));
        ThrowIfFaulted = module.ImportReference(chain.Methods.Single(m => m.Name == "ThrowIfFaulted" && m.Parameters.Count == 0));
        ThrowIfFaultedAt = module.ImportReference(chain.Methods.Single(m => m.Name == "ThrowIfFaulted" && m.Parameters.Count == 1));
        _getResult = chain.Methods.Single(m => m.Name == "GetResult");
        ThunkScope = module.ImportReference(scope);
        ThunkScopeEnter = module.ImportReference(scope.Methods.Single(m => m.Name == "Enter"));
        ThunkScopeExit = module.ImportReference(scope.Methods.Single(m => m.Name == "Exit"));
        ThunkScopeExitVariant = module.ImportReference(scope.Methods.Single(m => m.Name == "ExitVariant"));
        ThunkScopeChangedContexts = module.ImportReference(scope.Methods.Single(m => m.Name == "ChangedContexts"));
        ThunkScopeEnterVariant = module.ImportReference(scope.Methods.Single(m => m.Name == "EnterVariant"));
        LendContextScope = module.ImportReference(chain.Methods.Single(m => m.Name == "LendContextScope"));
        var stackGuard = Type(RuntimeNames.StackGuard);
        StackGuardMustSuspend = module.ImportReference(stackGuard.Methods.Single(m => m.Name == "MustSuspend"));
        StackGuardSetFloor = module.ImportReference(stackGuard.Methods.Single(m => m.Name == "SetFloor"));
        StackGuardRethrowsOutsideHandler = module.ImportReference(stackGuard.Methods.Single(m => m.Name == "RethrowsOutsideHandler"));
        StackGuardThrowAgain = module.ImportReference(stackGuard.Methods.Single(m => m.Name == "ThrowAgain"));
        RunsOwnBody = module.ImportReference(_overrideDispatch.Methods.Single(m => m.Name == "RunsOwnBody"));
        IsRuntimeProxy = module.ImportReference(_overrideDispatch.Methods.Single(m => m.Name == "IsRuntimeProxy"));
        SuspensionPointsConstructor = module.ImportReference(Type(RuntimeNames.SuspensionPointsAttribute).Methods.Single(m => m.IsConstructor));
        CrossAssemblyLinks = module.ImportReference(Type(RuntimeNames.CrossAssembly).Methods.Single(m => m.Name == "Links"));

        var systemType = CoreType("System", "Type", isValueType: false);
        ObjectGetType = new MethodReference("GetType", systemType, module.TypeSystem.Object) { HasThis = true };
        TypeFromHandle = new MethodReference("GetTypeFromHandle", systemType, systemType);
        TypeFromHandle.Parameters.Add(new ParameterDefinition(CoreType("System", "RuntimeTypeHandle", isValueType: true)));
        var methodBase = CoreType("System.Reflection", "MethodBase", isValueType: false);
        MethodFromHandle = new MethodReference("GetMethodFromHandle", methodBase, methodBase);
        MethodFromHandle.Parameters.Add(new ParameterDefinition(CoreType("System", "RuntimeMethodHandle", isValueType: true)));
        MethodFromHandle.Parameters.Add(new ParameterDefinition(CoreType("System", "RuntimeTypeHandle", isValueType: true)));
        RunClassConstructor = new MethodReference("RunClassConstructor", module.TypeSystem.Void, CoreType("System.Runtime.CompilerServices", "RuntimeHelpers", isValueType: false));
        RunClassConstructor.Parameters.Add(new ParameterDefinition(CoreType("System", "RuntimeTypeHandle", isValueType: true)));
        NullReferenceExceptionCtor = new MethodReference(".ctor", module.TypeSystem.Void, CoreType("System", "NullReferenceException", isValueType: false)) { HasThis = true };
        SystemAttribute = CoreType("System", "Attribute", isValueType: false);
        ActionConstructor = new MethodReference(".ctor", module.TypeSystem.Void, CoreType("System", "Action", isValueType: false)) { HasThis = true };
        ActionConstructor.Parameters.Add(new ParameterDefinition(module.TypeSystem.Object));
        ActionConstructor.Parameters.Add(new ParameterDefinition(module.TypeSystem.IntPtr));
        TypeEquality = new MethodReference("op_Equality", module.TypeSystem.Boolean, systemType);
        TypeEquality.Parameters.Add(new ParameterDefinition(systemType));
        TypeEquality.Parameters.Add(new ParameterDefinition(systemType));
    }

    private TypeReference CoreType(string @namespace, string name, bool isValueType) =>
        new(@namespace, name, _module, _module.TypeSystem.CoreLibrary, isValueType);

    public TypeReference Continuation { get; }

    /// <summary><c>RuntimeHelpers.RunClassConstructor(RuntimeTypeHandle)</c>.</summary>
    public MethodReference RunClassConstructor { get; }

    /// <summary><c>NullReferenceException()</c>, thrown where a <c>callvirt</c> replaced by a static call would have thrown.</summary>
    public MethodReference NullReferenceExceptionCtor { get; }
    public MethodReference ContinuationCtor { get; }
    public MethodReference ContinuationResume { get; }
    public FieldReference Next { get; }
    /// <summary><c>Continuation.StateAndFlags</c>: the state number above <see cref="RuntimeNames.FlagBits"/> bits of flags.</summary>
    public FieldReference StateAndFlags { get; }
    public TypeReference AsyncChain { get; }
    public TypeReference ChainByRef { get; }
    public FieldReference Head { get; }
    public MethodReference Link { get; }
    /// <summary><c>AsyncChain.LinkAwaitingCallee</c>: Link that also records the caller's resume context.</summary>
    public MethodReference LinkAwaitingCallee { get; }
    public MethodReference ThrowIfFaulted { get; }
    /// <summary><c>AsyncChain.ThrowIfFaulted(int)</c>: for PassFaultThrough, whose branches must not look alike to the JIT.</summary>
    public MethodReference ThrowIfFaultedAt { get; }
    public TypeReference ThunkScope { get; }
    public MethodReference ThunkScopeEnter { get; }
    public MethodReference ThunkScopeExit { get; }
    public MethodReference ThunkScopeExitVariant { get; }
    public MethodReference ThunkScopeChangedContexts { get; }
    public MethodReference ThunkScopeEnterVariant { get; }
    public MethodReference LendContextScope { get; }
    public MethodReference StackGuardMustSuspend { get; }
    public MethodReference StackGuardSetFloor { get; }
    public MethodReference StackGuardRethrowsOutsideHandler { get; }
    public MethodReference StackGuardThrowAgain { get; }
    /// <summary><c>OverrideDispatch.RunsOwnBody(object, RuntimeTypeHandle)</c>.</summary>
    public MethodReference RunsOwnBody { get; }
    /// <summary><c>OverrideDispatch.IsRuntimeProxy(object)</c>.</summary>
    public MethodReference IsRuntimeProxy { get; }

    /// <summary><c>SuspensionPointsAttribute(string file, int[] lines)</c>.</summary>
    public MethodReference SuspensionPointsConstructor { get; }
    /// <summary><c>CrossAssembly.Links(Action)</c>: whether a callee assembly is the build a caller was rewritten against.</summary>
    public MethodReference CrossAssemblyLinks { get; }
    public TypeReference SystemAttribute { get; }
    /// <summary><c>Action(object, IntPtr)</c>, for the probes passed to <see cref="CrossAssemblyLinks"/>.</summary>
    public MethodReference ActionConstructor { get; }
    public MethodReference ObjectGetType { get; }
    public MethodReference TypeFromHandle { get; }
    public MethodReference TypeEquality { get; }
    /// <summary><c>MethodBase.GetMethodFromHandle(RuntimeMethodHandle, RuntimeTypeHandle)</c>.</summary>
    public MethodReference MethodFromHandle { get; }

    /// <summary><c>OverrideDispatch.Await</c> for the Task type <paramref name="task"/> a foreign override returns.</summary>
    public MethodReference AwaitOverride(TypeReference task) => Overload(_overrideDispatch, "Await", task)
        ?? throw new InvalidOperationException($"Async2.Runtime has no OverrideDispatch.Await for {task.FullName}.");

    /// <summary><c>Task</c> for a void <paramref name="result"/>, <c>Task&lt;result&gt;</c> otherwise.</summary>
    public TypeReference TaskOf(TypeReference result)
    {
        if (result.MetadataType == MetadataType.Void)
            return CoreType("System.Threading.Tasks", "Task", isValueType: false);
        var task = new GenericInstanceType(CoreType("System.Threading.Tasks", "Task`1", isValueType: false));
        task.GenericArguments.Add(result);
        return task;
    }

    /// <summary><c>AsyncChain.GetResult&lt;T&gt;()</c>.</summary>
    public MethodReference GetResult(TypeReference result) => Instantiate(_getResult, result);

    /// <summary>The base class of a continuation for a method returning <paramref name="result"/> (void: non-generic).</summary>
    public TypeReference ContinuationBase(TypeReference result)
    {
        if (result.MetadataType == MetadataType.Void)
            return Continuation;
        var instance = new GenericInstanceType(_module.ImportReference(_genericContinuation));
        instance.GenericArguments.Add(result);
        return instance;
    }

    /// <summary>The constructor of <see cref="ContinuationBase"/>.</summary>
    public MethodReference ContinuationBaseCtor(TypeReference baseType) =>
        baseType is GenericInstanceType ? new MethodReference(".ctor", _module.TypeSystem.Void, baseType) { HasThis = true } : ContinuationCtor;

    /// <summary><c>Continuation&lt;T&gt;.Result</c> on the given instantiation.</summary>
    public FieldReference Result(TypeReference baseType) =>
        new("Result", _genericContinuation.GenericParameters[0], baseType);

    /// <summary>
    /// The AwaitBridge method named <paramref name="name"/> whose first parameter has the shape of
    /// <paramref name="operand"/> (Task, Task&lt;T&gt;, ValueTask, a ConfigureAwait form, an awaiter).
    /// </summary>
    public MethodReference? Bridge(string name, TypeReference operand, bool operandIsTypeArgument) =>
        operandIsTypeArgument
            ? Instantiate(_awaitBridge.Methods.First(m => m.Name == name), operand)
            : Overload(_awaitBridge, name, operand);

    /// <summary>
    /// The method of <paramref name="type"/> named <paramref name="name"/> whose first parameter has
    /// <paramref name="operand"/>'s type or generic type, instantiated over its type argument.
    /// </summary>
    private MethodReference? Overload(TypeDefinition type, string name, TypeReference operand)
    {
        var operandElement = operand is GenericInstanceType g ? g.ElementType : operand;
        foreach (var method in type.Methods.Where(m => m.Name == name))
        {
            var parameter = method.Parameters[0].ParameterType;
            var parameterElement = parameter is GenericInstanceType p ? p.ElementType : parameter;
            if (parameterElement.FullName != operandElement.FullName)
                continue;
            return operand is GenericInstanceType generic
                ? Instantiate(method, generic.GenericArguments[0])
                : _module.ImportReference(method);
        }
        return null;
    }

    /// <summary><c>TaskThunk.{name}</c>, instantiated over <paramref name="result"/> unless it is void.</summary>
    public MethodReference Thunk(string name, TypeReference result)
    {
        bool generic = result.MetadataType != MetadataType.Void;
        var method = _taskThunk.Methods.Single(m => m.Name == name && m.HasGenericParameters == generic);
        return generic ? Instantiate(method, result) : _module.ImportReference(method);
    }

    private MethodReference Instantiate(MethodDefinition method, TypeReference argument)
    {
        var instance = new GenericInstanceMethod(_module.ImportReference(method));
        instance.GenericArguments.Add(argument);
        return instance;
    }
}
