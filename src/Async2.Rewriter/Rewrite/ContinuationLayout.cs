using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Fills in a method's continuation class: a typed field for each variable live at some suspension
/// point (no boxing; variables never live at the same point share one of their type), the
/// suspended <c>this</c> of a class where code after an await reads it, a constructor, and the
/// Resume override that re-enters the variant. Generic over the owner's and M's generic parameters
/// (see <see cref="VariantDeclaration"/>).
/// <code>
/// sealed class &lt;M&gt;d__Async2_N&lt;TOwner.., TMethod..&gt; : Continuation&lt;T&gt;
/// {
///     public Owner&lt;TOwner..&gt; self; public int local0; public TMethod arg_name; ...
///     public override void Resume(ref AsyncChain chain) => Result = self.M'(default, ..., ref chain, this);
/// }
/// </code>
/// </summary>
internal sealed class ContinuationLayout
{
    private readonly Dictionary<object, FieldReference> _fields = new();
    private readonly TypeReference _continuationInMethod;

    private ContinuationLayout(TypeReference continuationInMethod) => _continuationInMethod = continuationInMethod;

    /// <summary>The suspended instance, for instance methods, as the variant names it.</summary>
    public FieldReference? Self { get; private set; }

    /// <summary>The field holding a local (<see cref="VariableDefinition"/>) or argument (<see cref="ParameterDefinition"/>), as the variant names it.</summary>
    public FieldReference FieldFor(object variable) => _fields[variable];

    /// <summary>
    /// The fields that may hold object references and do not hold one of <paramref name="variables"/>:
    /// what a frame reused for a suspension at another await still keeps from there. A frame holds
    /// one suspension's values, as classic async clears a hoisted local when its scope ends.
    /// </summary>
    /// <returns>Each field with its type as the variant names it (a holder's type).</returns>
    public IReadOnlyList<(FieldReference Field, TypeReference Type)> ReferencesNotHolding(IReadOnlyList<object> variables)
    {
        var holding = variables.Select(FieldFor).ToHashSet();
        return _fields
            .Select(entry => (Field: entry.Value, Type: entry.Key is VariableDefinition local ? local.VariableType : ((ParameterDefinition)entry.Key).ParameterType))
            .DistinctBy(entry => entry.Field)
            .Where(entry => !holding.Contains(entry.Field) && MayHoldReferences(entry.Type))
            .ToList();
    }

    private static bool MayHoldReferences(TypeReference type) => type.MetadataType is not (MetadataType.Boolean or MetadataType.Char
        or MetadataType.SByte or MetadataType.Byte or MetadataType.Int16 or MetadataType.UInt16 or MetadataType.Int32 or MetadataType.UInt32
        or MetadataType.Int64 or MetadataType.UInt64 or MetadataType.Single or MetadataType.Double or MetadataType.IntPtr or MetadataType.UIntPtr
        or MetadataType.Pointer or MetadataType.FunctionPointer);

    public static ContinuationLayout Build(VariantDeclaration declaration, IEnumerable<IReadOnlyList<object>> capturedAtEachPoint, bool keepsSelf, RuntimeReferences runtime)
    {
        var type = declaration.Continuation;
        var module = type.Module;

        // Field types are written in the continuation's own generic parameters (see VariantDeclaration).
        var layout = new ContinuationLayout(declaration.ContinuationInMethod);
        FieldDefinition? self = null;
        // Only a class's this that code after an await reads (MethodRewriter): otherwise the variant
        // is resumed with a null this. A struct's this is a managed pointer, which no heap object may
        // hold; it is dead across every await (MethodRewriter reports it otherwise).
        if (keepsSelf)
        {
            self = new FieldDefinition("self", FieldAttributes.Public, declaration.InContinuation(TypeResolution.SelfInstance(declaration.Original.DeclaringType)));
            type.Fields.Add(self);
            layout.Self = layout.InMethod(self);
        }
        foreach (var (holders, fieldType) in SharedFields(declaration, capturedAtEachPoint))
        {
            var field = new FieldDefinition(string.Join("|", holders.Select(FieldName)), FieldAttributes.Public, fieldType);
            type.Fields.Add(field);
            var reference = layout.InMethod(field);
            foreach (var variable in holders)
                layout._fields.Add(variable, reference);
        }

        AddConstructor(type, runtime);
        AddResume(declaration, runtime, self);
        type.CustomAttributes.Add(CoreAttributes.CompilerGenerated(module));
        return layout;
    }

    /// <summary>
    /// The fields the captured variables go in, with the variables each holds. A frame holds one
    /// suspension point's values at a time, so variables never captured at the same point share a
    /// field of their type (as Roslyn reuses hoisted fields): a frame is as large as its largest
    /// suspension point needs, not the sum of them all. Types are told apart by their assemblies too
    /// (<see cref="TypeResolution.Identity"/>); a type naming a generic parameter gets no shared field.
    /// </summary>
    private static List<(List<object> Holders, TypeReference Type)> SharedFields(VariantDeclaration declaration, IEnumerable<IReadOnlyList<object>> capturedAtEachPoint)
    {
        var points = capturedAtEachPoint.Select(variables => variables.ToHashSet()).ToList();
        var fields = new List<(List<object> Holders, TypeReference Type)>();
        foreach (var variable in points.SelectMany(p => p).Distinct())
        {
            var type = declaration.InContinuation(variable switch
            {
                VariableDefinition local => local.VariableType,
                ParameterDefinition parameter => parameter.ParameterType,
                _ => throw new ArgumentException("not a variable", nameof(capturedAtEachPoint)),
            });
            int shared = type.ContainsGenericParameter ? -1 : fields.FindIndex(field =>
                !field.Type.ContainsGenericParameter && TypeResolution.Identity(field.Type) == TypeResolution.Identity(type)
                && !field.Holders.Any(holder => points.Any(point => point.Contains(holder) && point.Contains(variable))));
            if (shared >= 0)
                fields[shared].Holders.Add(variable);
            else
                fields.Add(([variable], type));
        }
        return fields;
    }

    private static string FieldName(object variable) => variable switch
    {
        VariableDefinition local => $"local{local.Index}",
        ParameterDefinition parameter => $"arg_{parameter.Name}",
        _ => throw new ArgumentException("not a variable", nameof(variable)),
    };

    private FieldReference InMethod(FieldDefinition field) => GenericContext.FieldOn(field, _continuationInMethod);

    private static void AddConstructor(TypeDefinition type, RuntimeReferences runtime)
    {
        var ctor = new MethodDefinition(".ctor",
            MethodAttributes.Public | MethodAttributes.HideBySig | MethodAttributes.SpecialName | MethodAttributes.RTSpecialName,
            type.Module.TypeSystem.Void);
        var il = ctor.Body.GetILProcessor();
        il.Emit(OpCodes.Ldarg_0);
        il.Emit(OpCodes.Call, runtime.ContinuationBaseCtor(type.BaseType));
        il.Emit(OpCodes.Ret);
        type.Methods.Add(ctor);
    }

    private static void AddResume(VariantDeclaration declaration, RuntimeReferences runtime, FieldDefinition? self)
    {
        var type = declaration.Continuation;
        var resume = new MethodDefinition("Resume",
            MethodAttributes.Public | MethodAttributes.Virtual | MethodAttributes.HideBySig | MethodAttributes.Final,
            type.Module.TypeSystem.Void);
        resume.Parameters.Add(new ParameterDefinition("chain", ParameterAttributes.None, runtime.ChainByRef));
        var il = resume.Body.GetILProcessor();
        resume.Body.InitLocals = true;

        if (declaration.Shape.HasResult)
            il.Emit(OpCodes.Ldarg_0);
        // Inside a generic class, its own members are named on its instantiation over its own parameters.
        var continuationType = TypeResolution.SelfInstance(type);
        var owner = declaration.Original.DeclaringType;
        var ownerType = declaration.InContinuation(TypeResolution.SelfInstance(owner));
        if (self is not null)
        {
            il.Emit(OpCodes.Ldarg_0);
            il.Emit(OpCodes.Ldfld, GenericContext.FieldOn(self, continuationType));
        }
        else if (declaration.SelfIsManagedPointer)
        {
            // A struct method's variant never reads this after an await; any valid pointer will do.
            var placeholder = new VariableDefinition(ownerType);
            resume.Body.Variables.Add(placeholder);
            il.Emit(OpCodes.Ldloca, placeholder);
        }
        else if (declaration.Self is not null)
            il.Emit(OpCodes.Ldnull);
        // The variant restores the arguments it needs from this continuation; the rest are dead.
        // An argument the trimmer tracks ([DynamicallyAccessedMembers], only ever on a Type or a
        // string) gets null, which meets any annotation; an unassigned local would make it warn (IL2062).
        foreach (var parameter in declaration.Original.Parameters)
        {
            if (CoreAttributes.HasTrimmingAnnotations(parameter))
            {
                il.Emit(OpCodes.Ldnull);
                continue;
            }
            var placeholder = new VariableDefinition(declaration.InContinuation(parameter.ParameterType));
            resume.Body.Variables.Add(placeholder);
            il.Emit(OpCodes.Ldloc, placeholder);
        }
        il.Emit(OpCodes.Ldarg_1);
        il.Emit(OpCodes.Ldarg_0);
        il.Emit(OpCodes.Call, declaration.VariantOn(ownerType, type.GenericParameters.Skip(owner.GenericParameters.Count).ToArray<TypeReference>()));
        if (declaration.Shape.HasResult)
            il.Emit(OpCodes.Stfld, runtime.Result(type.BaseType));
        il.Emit(OpCodes.Ret);
        resume.CustomAttributes.Add(CoreAttributes.StackTraceHidden(type.Module));
        type.Methods.Add(resume);
    }
}
