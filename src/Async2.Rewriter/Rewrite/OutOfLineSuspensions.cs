using Mono.Cecil;
using Mono.Cecil.Cil;
using Mono.Cecil.Rocks;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// The methods that build and link a suspending frame out of line, one per suspension point of M,
/// static on the continuation class and declared when a variant first calls one:
/// <code>
/// static void &lt;M&gt;s__SuspendK([this,] live variables.., ref AsyncChain chain, &lt;M&gt;d__Async2 reuse)   (NoInlining)
///     { cont = reuse ?? new &lt;M&gt;d__Async2(); cont.StateAndFlags = k &lt;&lt; 3 | flags; cont.field_v = v ...; chain.Link(cont); }
/// </code>
/// The fresh-call variant calls them with no frame to reuse; the variant itself, with the frame it
/// was resumed from, when its inline suspensions would be too large (<see cref="SuspensionEmitter"/>).
/// Both store what <see cref="SuspensionEmitter.FillAndLink"/> stores, so a frame resumes the same
/// whichever built it.
/// </summary>
internal sealed class OutOfLineSuspensions
{
    private readonly VariantDeclaration _declaration;
    private readonly IReadOnlyDictionary<NormalizedAwait, IReadOnlyList<object>> _captured;
    private readonly ContinuationLayout _layout;
    private readonly RuntimeReferences _runtime;
    private readonly Dictionary<int, MethodDefinition> _declared = [];

    public OutOfLineSuspensions(VariantDeclaration declaration, IReadOnlyDictionary<NormalizedAwait, IReadOnlyList<object>> captured,
        ContinuationLayout layout, RuntimeReferences runtime) =>
        (_declaration, _captured, _layout, _runtime) = (declaration, captured, layout, runtime);

    /// <summary>Whether they take M's <c>this</c> first: the frame keeps it (M is an instance method of a class).</summary>
    public bool TakesSelf => _layout.Self is not null;

    /// <summary>
    /// <c>&lt;M&gt;s__SuspendK</c> for <paramref name="point"/>, as <paramref name="caller"/> (a variant of M) calls it;
    /// <paramref name="flags"/> are the StateAndFlags bits below the state, the same in both variants.
    /// </summary>
    public MethodReference CalledFrom(MethodDefinition caller, NormalizedAwait point, int flags)
    {
        if (!_declared.TryGetValue(point.State, out var method))
            _declared[point.State] = method = Declare(point, flags);
        return GenericContext.MethodOn(method, _declaration.ContinuationInMethod, [.. caller.GenericParameters]);
    }

    private MethodDefinition Declare(NormalizedAwait point, int flags)
    {
        var declaration = _declaration;
        var module = declaration.Variant.Module;
        var method = new MethodDefinition($"<{declaration.Original.Name.Replace('.', '-')}>s__Suspend{point.State}",
            MethodAttributes.Assembly | MethodAttributes.HideBySig | MethodAttributes.Static, module.TypeSystem.Void)
        {
            // Kept out of the variants: the point of having one.
            ImplAttributes = MethodImplAttributes.NoInlining,
        };
        GenericContext.CopyParameters(declaration.Original.GenericParameters, method, constraint => constraint);
        method.CustomAttributes.Add(CoreAttributes.CompilerGenerated(module));
        ParameterDefinition? self = null;
        if (_layout.Self is not null)
            method.Parameters.Add(self = new ParameterDefinition("this", ParameterAttributes.None, declaration.Self!.ParameterType));
        var values = new List<(FieldReference, Func<Instruction>)>();
        foreach (var variable in _captured[point])
        {
            var (name, type) = variable switch
            {
                VariableDefinition local => ($"local{local.Index}", local.VariableType),
                ParameterDefinition argument => (argument.Name, argument.ParameterType),
                _ => throw new ArgumentException("not a variable", nameof(point)),
            };
            var value = new ParameterDefinition(name, ParameterAttributes.None, type);
            if (variable is ParameterDefinition annotated)
                CoreAttributes.CopyTrimmingAnnotations(annotated, value, module);
            method.Parameters.Add(value);
            values.Add((_layout.FieldFor(variable), () => Instruction.Create(OpCodes.Ldarg, value)));
        }
        var chain = new ParameterDefinition("chain", ParameterAttributes.None, _runtime.ChainByRef);
        method.Parameters.Add(chain);
        var reuse = new ParameterDefinition("reuse", ParameterAttributes.None, declaration.ContinuationInMethod);
        method.Parameters.Add(reuse);

        var body = method.Body;
        var frame = SuspensionEmitter.AddLocal(body, declaration.ContinuationInMethod);
        var il = body.Instructions;
        foreach (var instruction in SuspensionEmitter.ReuseOrCreate(frame, reuse, declaration))
            il.Add(instruction);
        foreach (var instruction in SuspensionEmitter.FillAndLink(frame, point, flags, _layout, self, values,
            _layout.ReferencesNotHolding(_captured[point]), reuse, chain, _runtime, skipUnchangedReferences: false))
            il.Add(instruction);
        il.Add(Instruction.Create(OpCodes.Ret));
        body.OptimizeMacros();
        declaration.Continuation.Methods.Add(method);
        return method;
    }
}
