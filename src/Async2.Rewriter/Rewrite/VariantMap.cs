using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Rewrite;

/// <summary>What the rewriter adds for one runtime-async method M.</summary>
/// <param name="Original">M, which becomes the Task thunk.</param>
/// <param name="Variant">
/// M', the async2 variant: a static method of the continuation class taking M's <c>this</c> (if
/// any) explicitly, then M's parameters, then <c>ref AsyncChain chain</c> and the continuation to
/// resume (null on a call). It lives there, not beside M, because .NET prints a stack frame of a
/// method of a compiler-generated IAsyncStateMachine as the method whose [AsyncStateMachine] names
/// that type: M' then shows in stack traces as M, with M's parameters, as classic async's MoveNext does.
/// </param>
/// <param name="Continuation">The class holding M's suspended frame, nested in M's type.</param>
/// <remarks>
/// M' is what the dispatcher resumes. Calls in this module go to <see cref="Fresh"/> instead, M'
/// without the resumption: the same body, minus the resume parameter and the dispatch on it, with
/// each suspension's frame building moved out of line (SuspensionEmitter.EmitOutOfLine). It is
/// the synchronous path, kept small: the JIT can then keep fewer registers live and inline it,
/// into itself too, as it does a sync method (seed 001 measured FibAsync within 2% of Fib so).
/// </remarks>
/// <param name="Shape">How M's Task type wraps its result.</param>
/// <remarks>
/// Generics: IL nested types do not see their enclosing type's generic parameters, and the
/// continuation holds values of M's method parameters too, so the continuation declares its own:
/// the owner's (<c>!0..!n-1</c>, which C# already repeats on nested types) followed by M's
/// (<c>!n..</c>). M' declares the same method parameters as M, so in the body moved from M,
/// <c>!i</c> (now the continuation's first parameters) and <c>!!j</c> (now M''s) keep their meaning.
/// </remarks>
internal sealed record VariantDeclaration(MethodDefinition Original, MethodDefinition Variant, TypeDefinition Continuation, TaskShape Shape)
{
    /// <summary>For an instance M: M''s first parameter, which stands for M's <c>this</c>.</summary>
    public ParameterDefinition? Self => Original.IsStatic ? null : Variant.Parameters[0];

    /// <summary>A local's name in the source, where the PDB gives one (its scopes move with the body, from M to M').</summary>
    public string? SourceName(VariableDefinition local) =>
        Variant.DebugInformation.TryGetName(local, out var name) || Original.DebugInformation.TryGetName(local, out name) ? name : null;

    /// <summary>M''s <c>ref AsyncChain</c> parameter.</summary>
    public ParameterDefinition Chain => Variant.Parameters[^2];

    /// <summary>
    /// M' for calls: M''s parameters without the continuation to resume, declared beside M' with its
    /// name (so stack traces show it as M). Null for a method of another module, and for one that
    /// creates a closure (<see cref="VariantMap"/>.CreatesClosure).
    /// </summary>
    public MethodDefinition? Fresh { get; init; }

    /// <summary>M' and, where M has one, its fresh-call variant, each with its <c>ref AsyncChain</c> parameter.</summary>
    public IEnumerable<(MethodDefinition Method, ParameterDefinition Chain)> Bodies
    {
        get
        {
            yield return (Variant, Chain);
            if (Fresh is not null)
                yield return (Fresh, Fresh.Parameters[^1]);
        }
    }

    /// <summary>Whether <see cref="Self"/> is a managed pointer: M is an instance method of a struct.</summary>
    public bool SelfIsManagedPointer => Self is not null && Original.DeclaringType.IsValueType;

    /// <summary>
    /// M' as called for M on <paramref name="owner"/> (M's type, or an instantiation of it, as the
    /// caller names it) with <paramref name="methodArguments"/>:
    /// <c>Cont&lt;owner's arguments.., methodArguments..&gt;::M'&lt;methodArguments..&gt;</c>.
    /// </summary>
    public MethodReference VariantOn(TypeReference owner, IReadOnlyList<TypeReference> methodArguments) =>
        On(Variant, owner, methodArguments);

    /// <summary>
    /// What a call of M on <paramref name="owner"/> calls, as <see cref="VariantOn"/>: <see cref="Fresh"/>,
    /// or M' with a null continuation where M has no fresh-call variant.
    /// </summary>
    public CalledVariant CallOn(TypeReference owner, IReadOnlyList<TypeReference> methodArguments) =>
        Fresh is null ? new(VariantOn(owner, methodArguments), TakesResume: true) : new(On(Fresh, owner, methodArguments), TakesResume: false);

    private MethodReference On(MethodDefinition method, TypeReference owner, IReadOnlyList<TypeReference> methodArguments)
    {
        IEnumerable<TypeReference> ownerArguments = owner is GenericInstanceType instance ? instance.GenericArguments : Original.DeclaringType.GenericParameters;
        var continuation = TypeResolution.Instantiate(Continuation, ownerArguments.Concat(methodArguments));
        return GenericContext.MethodOn(method, continuation, methodArguments);
    }

    /// <summary>For a virtual M: the virtual method rewritten callers call through a base reference (<see cref="VirtualEntries"/>).</summary>
    public MethodDefinition? VirtualEntry { get; set; }

    /// <summary>The continuation as M, M' and the thunk name it: <c>Cont&lt;!0.., !!0..&gt;</c>, or just the class.</summary>
    public TypeReference ContinuationInMethod { get; } = TypeResolution.Instantiate(Continuation,
        Original.DeclaringType.GenericParameters.Concat(Original.GenericParameters));

    /// <summary>A type as M names it (in terms of <c>!i</c> and <c>!!j</c>) as the continuation class names it.</summary>
    public TypeReference InContinuation(TypeReference type)
    {
        int ownerParameters = Original.DeclaringType.GenericParameters.Count;
        return TypeResolution.Substitute(type, parameter => parameter.Type == GenericParameterType.Method
            ? Continuation.GenericParameters[ownerParameters + parameter.Position]
            : Continuation.GenericParameters[parameter.Position]);
    }
}

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
internal sealed class VariantMap(ForeignCalls foreign, bool dispatchesThroughEntries, IReadOnlySet<MethodDefinition> ambiguousSlots)
{
    private readonly Dictionary<MethodDefinition, VariantDeclaration> _byOriginal = new();
    private readonly Dictionary<MethodDefinition, MethodDefinition> _slotEntries = new();

    /// <summary>
    /// Whether virtual and interface calls go through entries (<see cref="VirtualEntries"/>,
    /// <see cref="InterfaceEntries"/>); if not, they await the Task the method returns, as classic async does.
    /// </summary>
    public bool DispatchesThroughEntries => dispatchesThroughEntries;

    public IEnumerable<VariantDeclaration> All => _byOriginal.Values;

    /// <summary>
    /// Whether <paramref name="method"/> gets no entry, so that virtual calls to it await its Task:
    /// the runtime may assign its slot otherwise than the entries would (<see cref="VirtualEntries.AmbiguousSlots"/>),
    /// or its interface has a variant type parameter (<see cref="InterfaceEntries.HasVariance"/>).
    /// </summary>
    public bool SlotHasNoEntries(MethodDefinition method) =>
        ambiguousSlots.Contains(method) || InterfaceEntries.HasVariance(method.DeclaringType);

    public void Add(VariantDeclaration declaration) => _byOriginal.Add(declaration.Original, declaration);

    public VariantDeclaration? Declaration(MethodDefinition original) => _byOriginal.GetValueOrDefault(original);

    /// <summary>The bridging entry of a method without a variant-backed entry (<see cref="VirtualEntries.SlotEntry"/>).</summary>
    public MethodDefinition? SlotEntry(MethodDefinition slot) => _slotEntries.GetValueOrDefault(slot);

    public void AddSlotEntry(MethodDefinition slot, MethodDefinition entry) => _slotEntries.Add(slot, entry);

    private readonly Dictionary<MethodDefinition, MethodDefinition> _interfaceGuards = new();

    /// <summary>What callers call instead of an interface's entry (<see cref="InterfaceEntries.DeclareGuard"/>).</summary>
    public void AddInterfaceGuard(MethodDefinition entry, MethodDefinition guard) => _interfaceGuards.Add(entry, guard);

    /// <summary>
    /// The method whose variant or entry <paramref name="call"/> can call instead: a method
    /// rewritten in this module, or, for a virtual call, a method with a slot entry (an interface
    /// or base method that rewritten methods implement). The operand is the definition, or, for
    /// generic code, an instantiation of it (<c>Repo&lt;int&gt;::GetAsync</c>, <c>Retry&lt;string&gt;</c>).
    /// A method of another module qualifies when that assembly was rewritten under the same
    /// contract (<see cref="ForeignCalls"/>); the call then goes through a bridge.
    /// </summary>
    public MethodDefinition? CallTarget(Instruction call)
    {
        if (call.OpCode.Code is not (Code.Call or Code.Callvirt) || call.Operand is not MethodReference reference)
            return null;
        var element = reference.GetElementMethod();
        var definition = element as MethodDefinition;
        if (definition is null && element.DeclaringType is GenericInstanceType { ElementType: TypeDefinition })
            definition = element.Resolve();
        if (definition is null)
            return foreign.Target(call, element);
        if (!dispatchesThroughEntries && VirtualEntries.Dispatches(definition, call.OpCode.Code == Code.Callvirt))
            return null;
        if (VirtualEntries.Dispatches(definition, call.OpCode.Code == Code.Callvirt) && SlotHasNoEntries(definition))
            return null;
        if (_byOriginal.ContainsKey(definition))
            return definition;
        return call.OpCode.Code == Code.Callvirt && _slotEntries.TryGetValue(definition, out var entry) && EntryReturnsItsResult(definition, entry)
            ? definition
            : null;
    }

    /// <summary>
    /// Whether <paramref name="entry"/> returns what awaiting <paramref name="method"/> gives. Not so
    /// for an override whose return type changed covariantly below the slot (a Task subclass, a
    /// <c>Task&lt;int&gt;</c> in a slot of <c>Task</c>): its entry is shaped after the slot, so a
    /// call through the override's own type awaits the task it returns instead.
    /// </summary>
    private static bool EntryReturnsItsResult(MethodDefinition method, MethodDefinition entry) =>
        TaskShape.Of(method) is { } shape
        && TypeResolution.SignatureIdentity(shape.Result) == TypeResolution.SignatureIdentity(entry.ReturnType);

    /// <summary>
    /// The variant <paramref name="call"/> must call instead, with the call's instantiation:
    /// <c>call Repo&lt;int&gt;::GetAsync()</c> becomes <c>call Repo&lt;int&gt;::GetAsync'(ref chain)</c>
    /// (the fresh-call variant). A virtual call to a method that can be overridden goes to its entry
    /// instead, and a call of another module's method to its bridge; both take a continuation
    /// after the chain, which the caller passes as null (<see cref="CalledVariant.TakesResume"/>).
    /// </summary>
    /// <param name="call">The call instruction.</param>
    /// <param name="target">What <see cref="CallTarget"/> found for it (AwaitSite.Callee).</param>
    public CalledVariant VariantCalledBy(Instruction call, MethodDefinition target)
    {
        if (!_byOriginal.ContainsKey(target) && !_slotEntries.ContainsKey(target))
            return new(foreign.BridgeCalledBy(call, target), TakesResume: true);
        bool isVirtualCall = call.OpCode.Code == Code.Callvirt;
        var operand = (MethodReference)call.Operand;
        TypeReference[] methodArguments = operand is GenericInstanceMethod generic ? [.. generic.GenericArguments] : [];
        if (isVirtualCall && _slotEntries.TryGetValue(target, out var slotEntry))
            return new(GenericContext.MethodOn(_interfaceGuards.GetValueOrDefault(slotEntry) ?? slotEntry, operand.DeclaringType, methodArguments), TakesResume: true);
        if (isVirtualCall && VirtualEntries.CanBeOverridden(target))
            return new(GenericContext.MethodOn(_byOriginal[target].VirtualEntry!, operand.DeclaringType, methodArguments), TakesResume: true);
        return _byOriginal[target].CallOn(operand.DeclaringType, methodArguments);
    }

    /// <summary>
    /// Declares M' and M's continuation class (bodies come later, so that every method's variant
    /// exists before any body refers to it).
    /// </summary>
    public static VariantDeclaration Declare(MethodDefinition original, TaskShape shape, RuntimeReferences runtime, int ordinal)
    {
        var owner = original.DeclaringType;
        // Internal, not private: every caller of M in the module calls M' on it. Named as Roslyn names
        // M's state machine, dots made dashes (<IJob-Run>d__0 for the explicit IJob.Run): a type name
        // with a dot cannot be parsed back from the [AsyncStateMachine(typeof(...))] naming it.
        var continuation = new TypeDefinition("", $"<{original.Name.Replace('.', '-')}>{RuntimeNames.ContinuationClassMarker}{ordinal}",
            TypeAttributes.NestedAssembly | TypeAttributes.Sealed | TypeAttributes.Class | TypeAttributes.BeforeFieldInit);
        owner.NestedTypes.Add(continuation);

        var variant = new MethodDefinition(original.Name, MethodAttributes.Assembly | MethodAttributes.HideBySig | MethodAttributes.Static, shape.Result)
        {
            // AggressiveInlining stays on M, the Task thunk: in classic async it inlines only the
            // stub that starts the state machine. An inlined variant would leave M's frame out of
            // exception stack traces, which skip inlining candidates.
            ImplAttributes = original.ImplAttributes & ~((MethodImplAttributes)RuntimeNames.AsyncImplFlag | MethodImplAttributes.AggressiveInlining),
        };
        // M' declares M's generic parameters position for position. Metadata names a generic parameter
        // by position only (!!0), so the body moved from M, its constraints and its signature types,
        // all of which still point at M's parameter objects, mean the same thing in M'.
        GenericContext.CopyParameters(original.GenericParameters, variant, constraint => constraint);
        var fresh = CreatesClosure(original)
            ? null
            : new MethodDefinition(original.Name, variant.Attributes, shape.Result) { ImplAttributes = variant.ImplAttributes };
        var declaration = new VariantDeclaration(original, variant, continuation, shape) { Fresh = fresh };
        GenericContext.CopyParameters(owner.GenericParameters.Concat(original.GenericParameters), continuation, declaration.InContinuation);
        continuation.BaseType = runtime.ContinuationBase(declaration.InContinuation(shape.Result));

        foreach (var method in new[] { variant, fresh })
        {
            if (method is null)
                continue;
            if (method == fresh)
                GenericContext.CopyParameters(original.GenericParameters, method, constraint => constraint);
            if (!original.IsStatic)
            {
                var self = TypeResolution.SelfInstance(owner);
                method.Parameters.Add(new ParameterDefinition("this", ParameterAttributes.None, owner.IsValueType ? new ByReferenceType(self) : self));
            }
            var resume = method == variant ? new ParameterDefinition("resume", ParameterAttributes.None, declaration.ContinuationInMethod) : null;
            AddParameters(method, original, resume, runtime);
            method.CustomAttributes.Add(CoreAttributes.CompilerGenerated(original.Module));
            continuation.Methods.Add(method);
        }
        return declaration;
    }

    /// <summary>
    /// Whether M's body constructs a lambda's or local function's closure (<c>&lt;&gt;c__DisplayClass</c>).
    /// Such a method keeps a single variant: the trimmer ties each closure class to the one method
    /// that constructs it, and warns (IL2117) when two do.
    /// </summary>
    private static bool CreatesClosure(MethodDefinition original) =>
        original.Body.Instructions.Any(instruction =>
            instruction.Operand is MethodReference { Name: ".ctor" } constructor
            && constructor.DeclaringType.GetElementType().Name.StartsWith("<>c", StringComparison.Ordinal));

    /// <summary>
    /// The variant parameter list on <paramref name="target"/>: <paramref name="original"/>'s
    /// parameters, then <c>ref AsyncChain chain</c> and <paramref name="continuation"/> (none for a fresh-call variant).
    /// </summary>
    public static void AddParameters(MethodDefinition target, MethodDefinition original, ParameterDefinition? continuation, RuntimeReferences runtime)
    {
        foreach (var parameter in original.Parameters)
            target.Parameters.Add(CoreAttributes.AnnotatedCopy(parameter, parameter.Attributes & (ParameterAttributes.In | ParameterAttributes.Out),
                parameter.ParameterType, original.Module));
        target.Parameters.Add(new ParameterDefinition("chain", ParameterAttributes.None, runtime.ChainByRef));
        if (continuation is not null)
            target.Parameters.Add(continuation);
    }
}

/// <summary>What a rewritten call calls, and whether a null continuation follows its chain argument.</summary>
internal sealed record CalledVariant(MethodReference Method, bool TakesResume)
{
    /// <summary>
    /// The call, after the arguments up to the chain: the null continuation where it takes one,
    /// then <c>call</c>, or <paramref name="instanceCall"/> for an entry (an instance method).
    /// </summary>
    public IEnumerable<Instruction> AfterChain(OpCode instanceCall)
    {
        if (TakesResume)
            yield return Instruction.Create(OpCodes.Ldnull);
        yield return Instruction.Create(Method.HasThis ? instanceCall : OpCodes.Call, Method);
    }
}
