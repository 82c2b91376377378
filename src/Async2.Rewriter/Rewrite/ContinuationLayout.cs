using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Fills in a method's continuation class: one typed field per variable live at some suspension
/// point (shared by all points; no boxing), the suspended <c>this</c> of a class, a constructor,
/// and the Resume override that re-enters the variant. Generic over the owner's and M's generic
/// parameters (see <see cref="VariantDeclaration"/>).
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

    public static ContinuationLayout Build(VariantDeclaration declaration, IEnumerable<object> capturedVariables, RuntimeReferences runtime)
    {
        var type = declaration.Continuation;
        var module = type.Module;

        // Field types are written in the continuation's own generic parameters (see VariantDeclaration).
        var layout = new ContinuationLayout(declaration.ContinuationInMethod);
        FieldDefinition? self = null;
        // A struct's this is a managed pointer, which no heap object may hold; it is dead across every
        // await (MethodRewriter checks), so the continuation keeps nothing for it.
        if (declaration.Self is not null && !declaration.SelfIsManagedPointer)
        {
            self = new FieldDefinition("self", FieldAttributes.Public, declaration.InContinuation(TypeResolution.SelfInstance(declaration.Original.DeclaringType)));
            type.Fields.Add(self);
            layout.Self = layout.InMethod(self);
        }
        foreach (var variable in capturedVariables)
        {
            var field = variable switch
            {
                VariableDefinition local => new FieldDefinition($"local{local.Index}", FieldAttributes.Public, declaration.InContinuation(local.VariableType)),
                ParameterDefinition parameter => new FieldDefinition($"arg_{parameter.Name}", FieldAttributes.Public, declaration.InContinuation(parameter.ParameterType)),
                _ => throw new ArgumentException("not a variable", nameof(capturedVariables)),
            };
            type.Fields.Add(field);
            layout._fields.Add(variable, layout.InMethod(field));
        }

        AddConstructor(type, runtime);
        AddResume(declaration, runtime, self);
        type.CustomAttributes.Add(CoreAttributes.CompilerGenerated(module));
        return layout;
    }

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
        else if (declaration.Self is not null)
        {
            // A struct method's variant never reads this after an await; any valid pointer will do.
            var placeholder = new VariableDefinition(ownerType);
            resume.Body.Variables.Add(placeholder);
            il.Emit(OpCodes.Ldloca, placeholder);
        }
        // The variant restores the arguments it needs from this continuation; the rest are dead.
        foreach (var parameter in declaration.Original.Parameters)
        {
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
