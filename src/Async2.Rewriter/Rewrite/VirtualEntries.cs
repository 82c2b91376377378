using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Mono.Cecil.Rocks;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Virtual dispatch between rewritten methods. The variant M' is not virtual: the Task thunk and
/// non-virtual calls (<c>base.M()</c>) must reach exactly M's body. A virtual M therefore also
/// gets an entry, a virtual method with M''s signature that rewritten callers call through a
/// base reference. Entries form their own slot family: the entry of a rewritten override
/// overrides the entry of the rewritten method it overrides, so virtual dispatch on the entry
/// picks the most derived rewritten body.
/// <code>
/// virtual R M'entry(args, ref AsyncChain chain, Continuation unused)
/// {
///     if (GetType() == typeof(Self) || OverrideDispatch.RunsOwnBody(this, Self))
///         return M'(args, ref chain);   // the fresh-call variant, if M has one
///     return OverrideDispatch.Await(M(args), ref chain);   // a class of another module may override M
/// }
/// </code>
/// Every other override in this module (non-async, kept classic, abstract) gets an entry too, which
/// takes the Task path (<see cref="AddNonRewrittenOverrideEntries"/>), so the entries mirror all
/// overrides the module has. An entry reached for an object whose classes, up to the entry's own,
/// all belong to this module therefore runs its own body; only classes of other modules, which
/// may override M without overriding the entry, need a look at run time, and that look needs no
/// reflection over methods (which trimming and NativeAOT do not keep).
/// The check is left out where nothing can override M below (a final method, a sealed type).
/// An entry is only ever called, never resumed (resumption goes to M' itself), but it keeps the
/// variant's parameter list, with the continuation typed as the common base class, so that
/// callers pass the same arguments to both and overriding entries agree on one signature.
/// </summary>
internal static class VirtualEntries
{
    /// <summary>
    /// Whether classes made at run time may override the entries: an assembly that lets
    /// DynamicProxyGenAssembly2 see its internals (for Castle DynamicProxy, behind Moq, NSubstitute
    /// and FakeItEasy) gets proxies overriding every virtual method they can see, internal entries
    /// too, and answering each call themselves: a call through an entry would reach the proxy's
    /// answer for the entry instead of the one set up for the method. Such an assembly gets no
    /// entries, and its virtual and interface calls await the Task, as classic async does; so do
    /// other assemblies' calls into it, which find no entry.
    /// </summary>
    public static bool ProxiesMayOverrideEntries(ModuleDefinition module) =>
        module.Assembly.CustomAttributes.Any(attribute =>
            attribute.AttributeType.FullName == "System.Runtime.CompilerServices.InternalsVisibleToAttribute"
            && attribute.ConstructorArguments is [{ Value: string friend }]
            && friend.Split(',')[0].Trim() == "DynamicProxyGenAssembly2");

    /// <summary>
    /// The virtual methods of <paramref name="module"/> whose slots the runtime assigns by a rule
    /// the entries do not follow: a base type that, as a class of the module instantiates it,
    /// declares two virtual methods with one name and one parameter list (<c>M(T)</c> and
    /// <c>M(int)</c> of <c>Col&lt;T&gt;</c>, seen from a class deriving <c>Col&lt;int&gt;</c>). Which of
    /// the two an override below takes depends on the order the base declares them, and entries
    /// placed by the nearest declaration took the other, or both. Every virtual method of that
    /// name in that base, its base types and the classes deriving from them is left without an
    /// entry: calls to them await the Task, as classic async does.
    /// </summary>
    public static IReadOnlySet<MethodDefinition> AmbiguousSlots(ModuleDefinition module)
    {
        var classes = module.GetTypes().Where(t => t.IsClass && !t.IsInterface).ToList();
        var roots = new HashSet<(TypeDefinition Type, string Name)>();
        foreach (var type in classes)
        {
            for (var baseType = type.BaseType; baseType is GenericInstanceType instance && TypeResolution.DefinitionInModule(baseType) is { } definition;
                 baseType = definition.BaseType is { } next ? SeenThrough(next, instance) : null)
            {
                var collisions = definition.Methods.Where(m => m.IsVirtual && !m.IsStatic)
                    .GroupBy(m => $"{m.Name}`{m.GenericParameters.Count}({string.Join(",", m.Parameters.Select(p => TypeResolution.SignatureIdentity(SeenThrough(p.ParameterType, instance))))})")
                    .Where(group => group.Count() > 1);
                // Its ancestors' methods of that name too: an entry of theirs, reached for a class
                // below, would run their own body, since every override below has one but these.
                foreach (var group in collisions)
                    foreach (var ancestor in Lineage(definition))
                        roots.Add((ancestor, group.First().Name));
            }
        }
        if (roots.Count == 0)
            return new HashSet<MethodDefinition>();
        return classes
            .SelectMany(type => Lineage(type).SelectMany(ancestor => type.Methods.Where(m => m.IsVirtual && roots.Contains((ancestor, m.Name)))))
            .ToHashSet();

        static TypeReference SeenThrough(TypeReference type, GenericInstanceType owner) =>
            TypeResolution.Substitute(type, parameter => parameter.Type == GenericParameterType.Type ? owner.GenericArguments[parameter.Position] : null);

        static IEnumerable<TypeDefinition> Lineage(TypeDefinition type)
        {
            for (TypeDefinition? current = type; current is not null; current = current.BaseType is { } next ? TypeResolution.DefinitionInModule(next) : null)
                yield return current;
        }
    }

    /// <summary>Whether <paramref name="method"/> may be reached through a slot that other code can override or that overrides another.</summary>
    public static bool Needed(MethodDefinition method) =>
        method.IsVirtual && !method.IsAbstract && !method.DeclaringType.IsInterface
        && !(method.IsFinal && method.IsNewSlot && !ExplicitlyOverriddenClassMethods(method).Any());

    /// <summary>Whether a virtual call to <paramref name="method"/> may end up in another body than its own.</summary>
    public static bool CanBeOverridden(MethodDefinition method) =>
        method.IsVirtual && !method.IsFinal && !method.DeclaringType.IsSealed;

    /// <summary>Whether a call to <paramref name="callee"/> picks its body at run time: a virtual call of an abstract, interface or overridable method, which goes through an entry.</summary>
    public static bool Dispatches(MethodDefinition callee, bool isVirtualCall) =>
        isVirtualCall && (callee.IsAbstract || (callee.DeclaringType.IsInterface && callee.IsVirtual) || CanBeOverridden(callee));

    /// <summary>Declares and emits the entries of every virtual method in <paramref name="variants"/>.</summary>
    public static void Add(VariantMap variants, RuntimeReferences runtime)
    {
        var declarations = variants.All.Where(d => Needed(d.Original) && !variants.SlotHasNoEntries(d.Original)).ToList();
        foreach (var declaration in declarations)
            declaration.VirtualEntry = Declare(declaration, runtime);
        foreach (var declaration in declarations)
        {
            var entry = declaration.VirtualEntry!;
            Place(entry, declaration.Original, variants, runtime);
            EmitBody(declaration, runtime);
        }
        if (variants.All.FirstOrDefault() is { } any)
            AddNonRewrittenOverrideEntries(any.Original.Module, variants, runtime);
    }

    /// <summary>
    /// Gives each override in <paramref name="module"/> that has no entry yet (a non-async
    /// override, one kept classic, an abstract re-declaration) of a method that has one an entry
    /// that calls it and awaits its task: base classes first, so overrides of overrides find theirs.
    /// </summary>
    private static void AddNonRewrittenOverrideEntries(ModuleDefinition module, VariantMap variants, RuntimeReferences runtime)
    {
        foreach (var type in module.GetTypes().Where(t => t.IsClass && !t.IsInterface).OrderBy(DepthInModule).ToList())
        {
            foreach (var method in type.Methods.Where(m => m.IsVirtual && !m.IsStatic && variants.Declaration(m) is null && variants.SlotEntry(m) is null).ToList())
            {
                var overridden = OverriddenMethods(method)
                    .Select(o => (o.Overridden, o.Owner, Entry: variants.Declaration(o.Overridden)?.VirtualEntry ?? variants.SlotEntry(o.Overridden)))
                    .FirstOrDefault(o => o.Entry is not null);
                if (overridden.Entry is not null)
                    variants.AddSlotEntry(method, TaskPathOverrideEntry(method, overridden.Overridden, overridden.Owner, overridden.Entry, runtime));
            }
        }
    }

    /// <summary>
    /// An entry for <paramref name="method"/>, overriding <paramref name="overriddenEntry"/> (the
    /// entry of <paramref name="overridden"/>, which <paramref name="method"/> overrides, declared on
    /// <paramref name="owner"/> as <paramref name="method"/>'s type sees it) and shaped like it: it
    /// calls <paramref name="overridden"/> virtually, which reaches <paramref name="method"/> or an
    /// override of it, and awaits the task. Shaped after the overridden entry, not
    /// <paramref name="method"/>, so that a covariant override (a Task subclass) gets one too, and
    /// so do overrides of that override, whose task is awaited as the entry's shape says
    /// (<see cref="AwaitedAs"/>).
    /// </summary>
    private static MethodDefinition TaskPathOverrideEntry(MethodDefinition method, MethodDefinition overridden, TypeReference owner,
        MethodDefinition overriddenEntry, RuntimeReferences runtime)
    {
        var entry = EntryCode.Declare(method.DeclaringType, $"<{method.Name}>v__Async2",
            MethodAttributes.Assembly | MethodAttributes.Virtual | MethodAttributes.HideBySig,
            method, ThroughOwner(overriddenEntry.ReturnType, owner, method), runtime);
        entry.Overrides.Add(GenericContext.MethodOn(overriddenEntry, owner, []));
        EntryCode.EmitTaskCall(entry.Body.GetILProcessor(), entry, GenericContext.MethodOn(overridden, owner, [.. entry.GenericParameters]),
            AwaitedAs(ThroughOwner(overridden.ReturnType, owner, method), entry.ReturnType, runtime), runtime);
        entry.Body.OptimizeMacros();
        return entry;
    }

    /// <summary>
    /// The Task type as which an entry returning <paramref name="result"/> awaits the
    /// <paramref name="returned"/> of the method it calls. Below a covariant override that method
    /// returns a type the entry, shaped after the slot, does not: a Task subclass (<c>MyTask : Task</c>,
    /// <c>MyTask&lt;T&gt; : Task&lt;T&gt;</c>) or a <c>Task&lt;T&gt;</c> in a slot of <c>Task</c>.
    /// Either is a Task of the slot's result, so it is awaited as <c>Task</c> or <c>Task&lt;result&gt;</c>.
    /// A ValueTask, a struct, has no covariant overrides and is awaited as itself.
    /// </summary>
    private static TypeReference AwaitedAs(TypeReference returned, TypeReference result, RuntimeReferences runtime) =>
        returned.GetElementType().FullName is "System.Threading.Tasks.ValueTask" or "System.Threading.Tasks.ValueTask`1"
            ? returned
            : runtime.TaskOf(result);

    /// <summary>How many base classes of <paramref name="type"/> this module defines.</summary>
    private static int DepthInModule(TypeDefinition type)
    {
        int depth = 0;
        for (var baseType = type.BaseType; baseType is not null && TypeResolution.DefinitionInModule(baseType) is { } definition; baseType = definition.BaseType)
            depth++;
        return depth;
    }

    private static MethodDefinition Declare(VariantDeclaration declaration, RuntimeReferences runtime)
    {
        var original = declaration.Original;
        var attributes = MethodAttributes.Assembly | MethodAttributes.Virtual | MethodAttributes.HideBySig
            | (original.IsFinal ? MethodAttributes.Final : 0);
        return EntryCode.Declare(original.DeclaringType, $"<{original.Name}>v__Async2", attributes, original, declaration.Shape.Result, runtime);
    }

    /// <summary>
    /// Makes <paramref name="entry"/> override the entries of the methods <paramref name="method"/>
    /// overrides, or start a slot of its own. An entry whose result differs from the overridden
    /// one's (a covariant <c>Task&lt;T&gt;</c> override of a <c>Task</c> method) cannot override it;
    /// a bridge does (<see cref="AddCovariantBridge"/>).
    /// </summary>
    private static void Place(MethodDefinition entry, MethodDefinition method, VariantMap variants, RuntimeReferences runtime)
    {
        foreach (var (overridden, owner) in OverriddenMethods(method).DistinctBy(o => o.Overridden))
        {
            var overriddenEntry = variants.Declaration(overridden)?.VirtualEntry ?? SlotEntry(overridden, variants, runtime);
            if (overriddenEntry is null)
                continue;
            var onOwner = GenericContext.MethodOn(overriddenEntry, owner, []);
            var overriddenResult = TypeResolution.SignatureIdentity(ThroughOwner(overriddenEntry.ReturnType, owner, method));
            if (overriddenResult == TypeResolution.SignatureIdentity(entry.ReturnType))
                entry.Overrides.Add(onOwner);
            else if (overriddenEntry.ReturnType.MetadataType == MetadataType.Void)
                AddCovariantBridge(entry, method, onOwner, runtime);
            // Any other difference has no Task-type covariance behind it, and C# does not produce it.
        }
        if (entry.Overrides.Count == 0)
            entry.Attributes |= MethodAttributes.NewSlot;
    }

    /// <summary>
    /// The base class methods of this module whose slots <paramref name="method"/> takes, each with
    /// the base type as <paramref name="method"/>'s type sees it. The runtime's rule: the explicit
    /// <c>.override</c> records of the method (C# writes them for covariant returns, on a
    /// <c>newslot</c> method), and for a method that is not <c>newslot</c> the nearest base method of
    /// the same name and signature. A <c>newslot</c> method without records hides what it does not
    /// name. Base types of other modules are not loaded; their methods have no entry this module could know of.
    /// </summary>
    private static IEnumerable<(MethodDefinition Overridden, TypeReference Owner)> OverriddenMethods(MethodDefinition method)
    {
        foreach (var overridden in ExplicitlyOverriddenClassMethods(method))
            yield return overridden;
        if (method.IsNewSlot)
            yield break;
        for (var baseType = method.DeclaringType.BaseType; baseType is not null;)
        {
            var definition = TypeResolution.DefinitionInModule(baseType);
            if (definition is null)
                yield break;
            var overridden = definition.Methods.FirstOrDefault(m => m.IsVirtual && SameSignature(method, m, baseType));
            if (overridden is not null)
            {
                yield return (overridden, baseType);
                yield break;
            }
            baseType = definition.BaseType is { } next ? ThroughOwner(next, baseType, method) : null;
        }
    }

    /// <summary>The class methods of this module named by <paramref name="method"/>'s <c>.override</c> records (interface methods are <see cref="InterfaceEntries"/>' concern).</summary>
    private static IEnumerable<(MethodDefinition Overridden, TypeReference Owner)> ExplicitlyOverriddenClassMethods(MethodDefinition method)
    {
        foreach (var reference in method.Overrides)
        {
            if (TypeResolution.DefinitionInModule(reference.DeclaringType) is not { IsInterface: false })
                continue;
            if (reference.GetElementMethod().Resolve() is { } overridden)
                yield return (overridden, reference.DeclaringType);
        }
    }

    /// <summary>
    /// A covariant override's entry returns the override's result (<c>T</c> for <c>Task&lt;T&gt;</c>)
    /// where the overridden entry returns nothing, so it cannot override that entry itself. The
    /// bridge, declared beside it, does: it calls the override's entry virtually (so overrides of
    /// the override are reached, as the runtime reaches them through [PreserveBaseOverrides]) and
    /// drops the result, which the base method's callers never read. A suspended callee hands its
    /// result to a frame that does not read it either.
    /// </summary>
    private static void AddCovariantBridge(MethodDefinition entry, MethodDefinition method, MethodReference overriddenEntry, RuntimeReferences runtime)
    {
        var owner = method.DeclaringType;
        var bridge = EntryCode.Declare(owner, $"<{method.Name}>c__Async2",
            MethodAttributes.Assembly | MethodAttributes.Virtual | MethodAttributes.HideBySig | MethodAttributes.NewSlot,
            method, owner.Module.TypeSystem.Void, runtime);
        bridge.Overrides.Add(overriddenEntry);
        var il = bridge.Body.GetILProcessor();
        il.Emit(OpCodes.Ldarg_0);
        foreach (var parameter in bridge.Parameters)
            il.Emit(OpCodes.Ldarg, parameter);
        il.Emit(OpCodes.Callvirt, GenericContext.MethodOn(entry, TypeResolution.SelfInstance(owner), [.. bridge.GenericParameters]));
        if (entry.ReturnType.MetadataType != MetadataType.Void)
            il.Emit(OpCodes.Pop);
        il.Emit(OpCodes.Ret);
        bridge.Body.OptimizeMacros();
    }

    /// <summary>
    /// The entry of a virtual or interface method that has no variant-backed entry of its own (an
    /// abstract or non-async method that rewritten methods override or implement, or a rewritten
    /// default interface method), declared on first use: it calls the method and awaits its task,
    /// which is right for every implementation, and rewritten ones override it. Null for a method
    /// that is not virtual (a sealed interface member) or final, whose slot the runtime may assign
    /// otherwise (<see cref="AmbiguousSlots"/>, <see cref="InterfaceEntries.HasVariance"/>), or that
    /// does not return a Task type.
    /// </summary>
    public static MethodDefinition? SlotEntry(MethodDefinition slot, VariantMap variants, RuntimeReferences runtime)
    {
        if (variants.SlotEntry(slot) is { } existing)
            return existing;
        if (!slot.IsVirtual || slot.IsFinal || slot.IsStatic || variants.SlotHasNoEntries(slot) || TaskShape.Of(slot) is not { } shape)
            return null;
        var entry = EntryCode.Declare(slot.DeclaringType, $"<{slot.Name}>v__Async2",
            MethodAttributes.Assembly | MethodAttributes.Virtual | MethodAttributes.HideBySig, slot, shape.Result, runtime);
        variants.AddSlotEntry(slot, entry);
        Place(entry, slot, variants, runtime);
        var self = TypeResolution.SelfInstance(slot.DeclaringType);
        EntryCode.EmitTaskCall(entry.Body.GetILProcessor(), entry, GenericContext.MethodOn(slot, self, [.. entry.GenericParameters]), slot.ReturnType, runtime);
        entry.Body.OptimizeMacros();
        if (slot.DeclaringType.IsInterface)
            variants.AddInterfaceGuard(entry, InterfaceEntries.DeclareGuard(entry, slot, runtime));
        return entry;
    }

    /// <summary>Whether <paramref name="method"/> has the name and signature of <paramref name="candidate"/> as seen through <paramref name="candidateOwner"/>.</summary>
    internal static bool SameSignature(MethodDefinition method, MethodDefinition candidate, TypeReference candidateOwner)
    {
        if (candidate.Name != method.Name || candidate.Parameters.Count != method.Parameters.Count
            || candidate.GenericParameters.Count != method.GenericParameters.Count)
            return false;
        string Seen(TypeReference type) => TypeResolution.SignatureIdentity(ThroughOwner(type, candidateOwner, method));
        string Own(TypeReference type) => TypeResolution.SignatureIdentity(TypeResolution.Substitute(type, _ => null));
        return Seen(candidate.ReturnType) == Own(method.ReturnType)
            && candidate.Parameters.Select(p => Seen(p.ParameterType)).SequenceEqual(method.Parameters.Select(p => Own(p.ParameterType)));
    }

    /// <summary>
    /// <paramref name="type"/>, written inside <paramref name="owner"/>'s definition, as seen
    /// from a derived <paramref name="method"/>: the owner's parameters become the arguments the
    /// derived type passes, and method parameters become the derived method's, position by position.
    /// </summary>
    internal static TypeReference ThroughOwner(TypeReference type, TypeReference owner, MethodDefinition method) =>
        TypeResolution.Substitute(type, parameter => parameter.Type switch
        {
            GenericParameterType.Type when owner is GenericInstanceType instance => instance.GenericArguments[parameter.Position],
            GenericParameterType.Method when parameter.Position < method.GenericParameters.Count => method.GenericParameters[parameter.Position],
            _ => null,
        });

    private static void EmitBody(VariantDeclaration declaration, RuntimeReferences runtime)
    {
        var original = declaration.Original;
        var entry = declaration.VirtualEntry!;
        var self = TypeResolution.SelfInstance(original.DeclaringType);
        TypeReference[] ownArguments = [.. entry.GenericParameters];
        var il = entry.Body.GetILProcessor();
        var runOwnBody = Instruction.Create(OpCodes.Ldarg_0);

        if (CanBeOverridden(original))
        {
            EntryCode.EmitExactTypeTest(il, self, runOwnBody, runtime);
            il.Emit(OpCodes.Ldarg_0);
            il.Emit(OpCodes.Ldtoken, self);
            il.Emit(OpCodes.Call, runtime.RunsOwnBody);
            il.Emit(OpCodes.Brtrue, runOwnBody);
            EntryCode.EmitTaskCall(il, entry, GenericContext.MethodOn(original, self, ownArguments), original.ReturnType, runtime);
        }
        EntryCode.EmitVariantCall(il, entry, runOwnBody, declaration.CallOn(self, ownArguments));
    }
}
