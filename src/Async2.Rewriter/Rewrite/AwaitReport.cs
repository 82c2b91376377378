using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Describes a rewritten method's suspension points for the rewrite report and <c>async2 inspect</c>:
/// what each await became, why an await that is not a direct call is not one, and what a
/// suspension there keeps. Describing only: nothing here changes the method.
/// </summary>
internal static class AwaitReport
{
    /// <summary>
    /// An await as the original body has it, taken before the body moves: offsets, sequence points
    /// and the calls themselves (callvirt becomes a call of an entry or variant) change then.
    /// </summary>
    public sealed record Origin(int Offset, SourceLocation? Source, string Kind, string? Why);

    public static Dictionary<AwaitSite, Origin> Before(IEnumerable<AwaitSite> sites, VariantMap variants) =>
        sites.ToDictionary(site => site, site => new Origin(site.Location.Offset, site.Location.Source, Kind(site),
            WhyNotDirect(site, variants)));

    public static IReadOnlyList<AwaitOutcome> Describe(VariantDeclaration declaration, IReadOnlyList<NormalizedAwait> awaits,
        IReadOnlyDictionary<NormalizedAwait, IReadOnlyList<object>> captured, IReadOnlyDictionary<AwaitSite, Origin> origins) =>
        awaits.Select(point =>
        {
            var origin = origins.GetValueOrDefault(point.Site);
            return new AwaitOutcome(point.State, origin?.Offset ?? -1, origin?.Source, origin?.Kind ?? Kind(point.Site), Awaited(point.Site), origin?.Why,
                captured[point].Select(variable => Live(declaration, variable)).ToList());
        }).ToList();

    private static string Kind(AwaitSite site) => site.Kind switch
    {
        AwaitKind.DirectCall when site.Call!.OpCode.Code == Code.Callvirt && site.Callee!.DeclaringType.IsInterface => "interface-entry",
        AwaitKind.DirectCall when site.Call!.OpCode.Code == Code.Callvirt && site.Callee!.IsVirtual && !site.Callee.IsFinal => "virtual-entry",
        AwaitKind.DirectCall => "direct",
        AwaitKind.Awaitable => "task-bridge",
        AwaitKind.Awaiter => "awaiter",
        _ => "stack-guard",
    };

    private static string Awaited(AwaitSite site) =>
        site.Callee is { } callee ? Diagnostics.Describe(callee) : site.Operand.FullName;

    /// <summary>Why an await of a task does not call a variant: what produced the task, as far as the IL shows.</summary>
    private static string? WhyNotDirect(AwaitSite site, VariantMap variants)
    {
        if (site.Kind == AwaitKind.Awaiter)
            return $"a custom awaiter ({site.Operand.Name}): resumed through its OnCompleted";
        if (site.Kind != AwaitKind.Awaitable)
            return null;
        var producer = site.Await.Previous;
        if (AwaitSites.ConfigureAwaitBefore(site.Await) is { } configured)
        {
            if (configured.Method.Parameters is [{ ParameterType.MetadataType: not MetadataType.Boolean }])
                return "ConfigureAwait with ConfigureAwaitOptions: only ConfigureAwait(true or false) is honoured on a direct call";
            if (configured.Constant is null)
                return "ConfigureAwait with a value computed at run time: only a constant true or false is honoured on a direct call";
            producer = configured.Producer;
        }
        if (site.TaskFromSeveralBranches)
            return "the task comes from more than one branch (a conditional expression, for one): no single call produced it";
        if (producer?.OpCode.Code is not (Code.Call or Code.Callvirt) || producer.Operand is not MethodReference callee)
            return "it awaits a task value, not the result of a call";
        if (producer.Previous?.OpCode.Code == Code.Constrained)
            return $"a constrained call ({Diagnostics.Describe(callee)}): the type argument picks the implementation";
        // A reference's Module is the referencing one; the scope names the assembly it lives in.
        if (callee.DeclaringType.Scope is AssemblyNameReference other)
            return $"the callee {Diagnostics.Describe(callee)} is in another assembly ({other.Name})";
        var definition = callee.Resolve();
        if (!variants.DispatchesThroughEntries && definition is not null && VirtualEntries.Dispatches(definition, producer.OpCode.Code == Code.Callvirt))
            return $"a virtual call ({Diagnostics.Describe(callee)}) in an assembly that lets DynamicProxyGenAssembly2 see its internals: "
                + "mocks' proxies would override its entry too, so it goes through the Task";
        if (definition is not null && VirtualEntries.Dispatches(definition, producer.OpCode.Code == Code.Callvirt) && variants.SlotHasNoEntries(definition))
            return InterfaceEntries.HasVariance(definition.DeclaringType)
                ? $"a call through {definition.DeclaringType.Name}, an interface with a variant type parameter: the runtime may "
                    + "pick an implementation of another instantiation for an entry, so it goes through the Task"
                : $"a virtual call ({Diagnostics.Describe(callee)}) of a method that a generic base class declares twice once instantiated "
                    + "(one name, one parameter list): the runtime picks the slot an override takes, so it goes through the Task";
        // A callee rewritten before this method has lost its async flag but keeps its declaration.
        if (definition is null || (variants.Declaration(definition) is null && ((int)definition.ImplAttributes & RuntimeNames.AsyncImplFlag) == 0))
            return $"the callee {Diagnostics.Describe(callee)} is not a runtime-async method";
        return $"the callee {Diagnostics.Describe(callee)} has no variant reachable from here";
    }

    private static LiveVariable Live(VariantDeclaration declaration, object variable) => variable switch
    {
        VariableDefinition local => new LiveVariable(declaration.SourceName(local) ?? $"local{local.Index}",
            local.VariableType.FullName),
        ParameterDefinition parameter => new LiveVariable(parameter.Name, parameter.ParameterType.FullName),
        _ => new LiveVariable(variable.ToString() ?? "?", "?"),
    };
}
