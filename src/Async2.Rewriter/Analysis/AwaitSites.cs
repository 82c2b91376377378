using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Analysis;

internal enum AwaitKind
{
    /// <summary><c>call M; call AsyncHelpers.Await(Task)</c> where M is rewritten too: call its variant directly.</summary>
    DirectCall,

    /// <summary><c>AsyncHelpers.Await(x)</c> on a Task, ValueTask or a ConfigureAwait form of one.</summary>
    Awaitable,

    /// <summary><c>AsyncHelpers.[Unsafe]AwaitAwaiter(awaiter)</c>, after Roslyn's own IsCompleted test.</summary>
    Awaiter,

    /// <summary>Not in the source: the rewriter's suspension at entry when the stack runs low (Rewrite/StackGuardEmitter.cs).</summary>
    StackGuard,
}

/// <summary>
/// One await in a runtime-async body.
/// </summary>
/// <param name="Await">The call to AsyncHelpers.</param>
/// <param name="Call">For <see cref="AwaitKind.DirectCall"/>: the call producing the awaited task.</param>
/// <param name="Callee">For <see cref="AwaitKind.DirectCall"/>: the rewritten method called.</param>
/// <param name="Operand">The awaited value's type (task, awaitable or awaiter).</param>
/// <param name="Result">What the await produces (void for none).</param>
/// <param name="StackBelow">Types on the evaluation stack under the awaited value (or the callee's arguments), bottom first.</param>
internal sealed record AwaitSite(
    AwaitKind Kind,
    Instruction Await,
    Instruction? Call,
    MethodDefinition? Callee,
    TypeReference Operand,
    TypeReference Result,
    bool FlowsContext,
    IReadOnlyList<TypeReference> StackBelow)
{
    /// <summary>Where the await is in the compiler's body (its offset and statement), kept for reports after the body moves.</summary>
    public AwaitLocation Location { get; init; } = new(Await.Offset, null);
}

internal sealed record AwaitLocation(int Offset, SourceLocation? Source);

/// <summary>
/// Finds the awaits of a runtime-async body and classifies them (match or bail: an unknown
/// AsyncHelpers member is reported, never guessed at).
/// </summary>
internal static class AwaitSites
{
    public static IReadOnlyList<AwaitSite> Find(
        MethodDefinition method,
        StackTypes stack,
        Func<Instruction, MethodDefinition?> callTarget,
        ICollection<Diagnostic> diagnostics)
    {
        var body = method.Body;
        var branchTargets = BranchTargets(body);
        var sites = new List<AwaitSite>();
        foreach (var instruction in body.Instructions)
        {
            if (instruction.OpCode.Code != Code.Call || instruction.Operand is not MethodReference helper
                || helper.DeclaringType.FullName != RuntimeNames.AsyncHelpers)
                continue;
            if (!stack.IsReachable(instruction))
                continue;

            var below = stack.Before(instruction);
            var operand = TypeResolution.InContextOf(helper.Parameters[0].ParameterType, helper);
            var result = TypeResolution.InContextOf(helper.ReturnType, helper);
            switch (helper.Name)
            {
                case "Await":
                    var callee = DirectCallee(instruction, branchTargets, callTarget, operand);
                    if (callee is not null)
                    {
                        var call = instruction.Previous;
                        int arguments = callee.Parameters.Count + (callee.HasThis ? 1 : 0);
                        var beforeCall = stack.Before(call);
                        sites.Add(Located(new AwaitSite(AwaitKind.DirectCall, instruction, call, callee, operand, result, false,
                            beforeCall.Take(beforeCall.Count - arguments).ToList())));
                    }
                    else
                        sites.Add(Located(new AwaitSite(AwaitKind.Awaitable, instruction, null, null, operand, result, false,
                            below.Take(below.Count - 1).ToList())));
                    break;
                case "AwaitAwaiter":
                case "UnsafeAwaitAwaiter":
                    sites.Add(Located(new AwaitSite(AwaitKind.Awaiter, instruction, null, null, operand, result,
                        helper.Name == "AwaitAwaiter", below.Take(below.Count - 1).ToList())));
                    break;
                default:
                    diagnostics.Add(new Diagnostic(DiagnosticCodes.UnknownAwaitShape, method.Module.Assembly.Name.Name,
                        method.FullName, instruction.Offset, $"call to AsyncHelpers.{helper.Name} is not an await shape Async2 knows."));
                    break;
            }
        }
        return sites;

        AwaitSite Located(AwaitSite site) => site with { Location = new(site.Await.Offset, Diagnostics.SourceOf(method, site.Await)) };
    }

    /// <summary>
    /// The rewritten method whose task this Await consumes straight from the call before it, or
    /// null. Only a call whose result goes nowhere else qualifies: nothing may branch to the Await.
    /// </summary>
    private static MethodDefinition? DirectCallee(
        Instruction await,
        HashSet<Instruction> branchTargets,
        Func<Instruction, MethodDefinition?> callTarget,
        TypeReference awaited)
    {
        var call = await.Previous;
        if (call is null || branchTargets.Contains(await))
            return null;
        if (call.OpCode.Code is not (Code.Call or Code.Callvirt) || call.Operand is not MethodReference target)
            return null;
        // A constrained call picks its implementation by a type argument, not by the object.
        if (call.Previous?.OpCode.Code == Code.Constrained)
            return null;
        var callee = callTarget(call);
        if (callee is null)
            return null;
        return TypeResolution.InContextOf(target.ReturnType, target).FullName == awaited.FullName ? callee : null;
    }

    private static HashSet<Instruction> BranchTargets(MethodBody body)
    {
        var targets = new HashSet<Instruction>();
        foreach (var instruction in body.Instructions)
        {
            if (instruction.Operand is Instruction target)
                targets.Add(target);
            else if (instruction.Operand is Instruction[] many)
                targets.UnionWith(many);
        }
        foreach (var handler in body.ExceptionHandlers)
        {
            targets.Add(handler.HandlerStart);
            if (handler.FilterStart is not null)
                targets.Add(handler.FilterStart);
        }
        return targets;
    }
}
