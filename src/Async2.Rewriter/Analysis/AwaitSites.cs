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

    /// <summary>
    /// For a <see cref="AwaitKind.DirectCall"/> written <c>await M().ConfigureAwait(b)</c>: the
    /// instructions between the call and the Await that configure the task, which the rewrite removes.
    /// </summary>
    public IReadOnlyList<Instruction>? ConfigureAwaitCode { get; init; }

    /// <summary>The constant the <see cref="ConfigureAwaitCode"/> passes: whether the caller comes back to its context.</summary>
    public bool? ConfiguredContinueOnCapturedContext { get; init; }

    /// <summary>
    /// For an <see cref="AwaitKind.Awaitable"/>: branches join where the task is taken (by the
    /// Await or its ConfigureAwait), as after <c>await (c ? F() : G())</c>, so no one call produced it.
    /// </summary>
    public bool TaskFromSeveralBranches { get; init; }

    /// <summary>
    /// The await's result stays on the evaluation stack down to a later await, under the values
    /// that await keeps: a local of the source the compiler's Release code keeps there
    /// (<c>int a = await F(); Check(a); return a + await G();</c>), which classic async hoists into
    /// its state machine, so that the statement after the await starts on an empty stack.
    /// </summary>
    public bool ResultKeptAcrossAwait { get; init; }

    /// <summary>
    /// The instruction after the await stores its result into a local or an argument (<c>int b =
    /// await F();</c>), and no branch reaches that store: the values under the result can be
    /// loaded after it as well as before.
    /// </summary>
    public bool ResultStoredAtOnce { get; init; }

    /// <summary>
    /// Whether every value under the await (<see cref="StackBelow"/>) was on the stack already where
    /// its statement started: a local of an earlier statement the compiler's Release code keeps
    /// there, which classic async keeps in its state machine, rather than an operand of the
    /// statement's own expression (<c>(a, b) = (await F(), await G())</c>), which classic spills
    /// and reloads within the statement. False without sequence points.
    /// </summary>
    public bool StackBelowFromEarlierStatements { get; init; }
}

internal sealed record AwaitLocation(int Offset, SourceLocation? Source);

/// <summary>A ConfigureAwait call before an Await (<see cref="AwaitSites.ConfigureAwaitBefore"/>), first instruction first in <paramref name="Code"/>.</summary>
internal sealed record ConfigureAwaitForm(MethodReference Method, Instruction Argument, VariableDefinition? Temporary, IReadOnlyList<Instruction> Code)
{
    /// <summary>The constant the argument is, or null when it is computed (a one-instruction argument is then a variable).</summary>
    public int? Constant => Argument.OpCode.Code == Mono.Cecil.Cil.Code.Ldc_I4 ? (int)Argument.Operand : null;

    /// <summary>The instruction that pushed the configured task (the callee's call, for a call's task), when the argument is one instruction.</summary>
    public Instruction? Producer => Code[0].Previous;
}

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
        var readElsewhere = LocalsReadElsewhere(body, branchTargets);
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
                    var configured = Configured(instruction, branchTargets, readElsewhere);
                    var taskConsumer = configured is { } form ? form.Consumer : instruction;
                    // ConfigureAwait's declaring type is the task type as the caller names it (its type parameters are the caller's).
                    var task = configured is { } taskForm ? taskForm.Call.DeclaringType : operand;
                    var callee = DirectCallee(taskConsumer, branchTargets, callTarget, task);
                    if (callee is not null)
                    {
                        var call = taskConsumer.Previous;
                        int arguments = callee.Parameters.Count + (callee.HasThis ? 1 : 0);
                        var beforeCall = stack.Before(call);
                        sites.Add(Located(new AwaitSite(AwaitKind.DirectCall, instruction, call, callee, task, result, false,
                            beforeCall.Take(beforeCall.Count - arguments).ToList())
                        {
                            ConfigureAwaitCode = configured?.Code,
                            ConfiguredContinueOnCapturedContext = configured?.ContinueOnCapturedContext,
                        }));
                    }
                    else
                        sites.Add(Located(new AwaitSite(AwaitKind.Awaitable, instruction, null, null, operand, result, false,
                            below.Take(below.Count - 1).ToList())
                        {
                            TaskFromSeveralBranches = branchTargets.Contains(instruction)
                                || ConfigureAwaitBefore(instruction) is { } configuring && configuring.Code.Any(branchTargets.Contains),
                        }));
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
        var byAwait = sites.ToDictionary(site => site.Await);
        var statementStarts = method.DebugInformation.HasSequencePoints
            ? method.DebugInformation.SequencePoints.Where(point => !point.IsHidden).Select(point => point.Offset).ToHashSet()
            : [];
        return sites.Select(site => site with
        {
            StackBelowFromEarlierStatements = StackAtStatementStart(site.Await, statementStarts, stack) >= site.StackBelow.Count,
            ResultKeptAcrossAwait = ResultKeptAcrossAwait(site, byAwait, stack),
            ResultStoredAtOnce = site.Result.MetadataType != MetadataType.Void && site.Await.Next is { } next
                && next.OpCode.Code is Code.Stloc or Code.Starg && !branchTargets.Contains(next),
        }).ToList();

        AwaitSite Located(AwaitSite site) => site with { Location = new(site.Await.Offset, Diagnostics.SourceOf(method, site.Await)) };
    }

    /// <summary>The depth of the stack where the statement holding <paramref name="instruction"/> starts (-1: no statement found).</summary>
    private static int StackAtStatementStart(Instruction instruction, HashSet<int> statementStarts, StackTypes stack)
    {
        if (statementStarts.Count == 0)
            return -1; // no PDB: a walk back would reach the method's first instruction for every await
        for (var at = instruction; at is not null; at = at.Previous)
            if (statementStarts.Contains(at.Offset))
                return stack.IsReachable(at) ? stack.Before(at).Count : -1;
        return -1;
    }

    /// <summary>
    /// Follows the result's stack slot in straight-line code to the next await (<see cref="AwaitSite.ResultKeptAcrossAwait"/>);
    /// false when it is popped first, or a branch comes first.
    /// </summary>
    private static bool ResultKeptAcrossAwait(AwaitSite site, Dictionary<Instruction, AwaitSite> byAwait, StackTypes stack)
    {
        if (site.Result.MetadataType == MetadataType.Void)
            return false;
        int slot = site.StackBelow.Count;
        for (var instruction = site.Await.Next; instruction is not null; instruction = instruction.Next)
        {
            if (!stack.IsReachable(instruction) || stack.Before(instruction).Count <= slot)
                return false;
            if (byAwait.TryGetValue(instruction, out var later))
                return later.StackBelow.Count > slot;
            if (instruction.OpCode.FlowControl is not (FlowControl.Next or FlowControl.Call))
                return false;
        }
        return false;
    }

    /// <summary>
    /// <c>ldc.i4 b; call Task[&lt;T&gt;]::ConfigureAwait(bool)</c> right before the Await, or for a
    /// ValueTask <c>stloc t; ldloca t; ldc.i4 b; call ValueTask[&lt;T&gt;]::ConfigureAwait(bool)</c>,
    /// with nothing branching into it and the temporary used nowhere else: ConfigureAwait with a
    /// constant, which a direct call can honour (ConfigureAwaitOptions go through the Task). Returns
    /// the instruction that takes the task from its producer, and the instructions that configure it.
    /// </summary>
    private static (MethodReference Call, Instruction Consumer, IReadOnlyList<Instruction> Code, bool ContinueOnCapturedContext)? Configured(
        Instruction await, HashSet<Instruction> branchTargets, IReadOnlySet<VariableDefinition> readElsewhere)
    {
        if (ConfigureAwaitBefore(await) is not { } form
            || form.Method.Parameters is not [{ ParameterType.MetadataType: MetadataType.Boolean }]
            || form.Constant is not (0 or 1))
            return null;
        switch (form.Method.DeclaringType.GetElementType().FullName)
        {
            case "System.Threading.Tasks.Task" or "System.Threading.Tasks.Task`1" when form.Temporary is null:
                break;
            // A local of the source (var vt = M(); await vt.ConfigureAwait(false); ... vt) may be
            // read again: only a temporary read right after each store may go.
            case "System.Threading.Tasks.ValueTask" or "System.Threading.Tasks.ValueTask`1"
                when form.Temporary is { } temporary && !readElsewhere.Contains(temporary):
                break;
            default:
                return null;
        }
        if (branchTargets.Contains(await) || form.Code.Any(branchTargets.Contains))
            return null;
        return (form.Method, form.Code[0], form.Code, form.Constant == 1);
    }

    /// <summary>
    /// The IL of <c>x.ConfigureAwait(argument)</c> right before <paramref name="await"/>, whatever
    /// the argument: the call and its one-instruction argument, and for a ValueTask, which is
    /// configured through its address, the temporary it is stored to (<c>stloc t; ldloca t</c>).
    /// The instruction before the form produced the task. Null when the Await takes no ConfigureAwait.
    /// </summary>
    public static ConfigureAwaitForm? ConfigureAwaitBefore(Instruction await)
    {
        if (await.Previous is not { OpCode.Code: Code.Call or Code.Callvirt, Operand: MethodReference { Name: "ConfigureAwait" } method } call
            || call.Previous is not { } argument)
            return null;
        if (argument.Previous is { } address && LocalOf(address, Code.Ldloca) is { } temporary
            && address.Previous is { } store && LocalOf(store, Code.Stloc) == temporary)
            return new ConfigureAwaitForm(method, argument, temporary, [store, address, argument, call]);
        return new ConfigureAwaitForm(method, argument, null, [argument, call]);
    }

    // Bodies are analysed with their macros simplified (MethodRewriter): ldc.i4, stloc and ldloca
    // come in their long forms only.

    /// <summary>
    /// The locals read anywhere but right after a store to them (<c>stloc t; ldloca t</c>, the
    /// shape of the compiler's temporaries, which it reuses from await to await): a value stored
    /// there may be needed later, so the store must stay.
    /// </summary>
    private static HashSet<VariableDefinition> LocalsReadElsewhere(MethodBody body, HashSet<Instruction> branchTargets)
    {
        var locals = new HashSet<VariableDefinition>();
        foreach (var instruction in body.Instructions)
        {
            if (instruction.OpCode.Code is not (Code.Ldloc or Code.Ldloca) || instruction.Operand is not VariableDefinition local)
                continue;
            bool rightAfterStore = !branchTargets.Contains(instruction) && instruction.Previous is { } previous && LocalOf(previous, Code.Stloc) == local;
            if (!rightAfterStore)
                locals.Add(local);
        }
        return locals;
    }

    /// <summary>The local <paramref name="instruction"/> names when it is a <paramref name="code"/>; null otherwise.</summary>
    private static VariableDefinition? LocalOf(Instruction instruction, Code code) =>
        instruction.OpCode.Code == code ? (VariableDefinition)instruction.Operand : null;

    /// <summary>
    /// The rewritten method whose task <paramref name="consumer"/> (the Await, or the constant of a
    /// ConfigureAwait before it) takes straight from the call before it, or null. Only a call whose
    /// result goes nowhere else qualifies: nothing may branch to the consumer.
    /// </summary>
    private static MethodDefinition? DirectCallee(
        Instruction consumer,
        HashSet<Instruction> branchTargets,
        Func<Instruction, MethodDefinition?> callTarget,
        TypeReference awaited)
    {
        var call = consumer.Previous;
        if (call is null || branchTargets.Contains(consumer))
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
