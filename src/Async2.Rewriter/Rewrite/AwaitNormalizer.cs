using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// An await after normalization: the suspension test at <see cref="Check"/> branches to
/// <see cref="Continue"/> when the awaited operation completed; suspension and resumption code
/// is inserted between the two. The evaluation stack is empty at both.
/// <see cref="ContinuesOnCapturedContext"/> is false where a ConfigureAwait(false) attribute
/// applies to an await that names no ConfigureAwait itself, and for a direct call written with
/// ConfigureAwait(false).
/// </summary>
internal sealed record NormalizedAwait(int State, AwaitSite Site, Instruction Check, Instruction Continue, VariableDefinition? ResultTemp, bool ContinuesOnCapturedContext = true);

/// <summary>
/// First rewrite pass: puts every await of the variant body into one canonical shape with an
/// empty evaluation stack, spilling whatever the stack held into fresh locals. After it, what is
/// live across an await is only locals and arguments, which liveness can see.
/// <code>
/// direct:    [S, args] call M; call Await(Task&lt;T&gt;)
///        ⇒  spill S (and args above it); call M'(args, ref chain[, null]); stloc r;
///           ldarg chain; ldfld Head; brfalse CONTINUE; CONTINUE: reload S; ldloc r
/// awaitable: [S, x] call Await(x)
///        ⇒  stloc x; spill S; ldloc x; ldarg chain; call AwaitBridge.Suspend(x, ref chain);
///           brfalse CONTINUE; CONTINUE: reload S; ldloc x; call AwaitBridge.GetResult(x)
/// Under a ConfigureAwait(false) attribute a plain Task or ValueTask is bridged through
/// AwaitBridge.SuspendWithoutCapturedContext, and a direct call is marked so its caller frame records
/// no context; explicit ConfigureAwait forms and custom awaiters are left as written. A direct call
/// written <c>await M().ConfigureAwait(b)</c> (the Task's or ValueTask's, with a constant) is a
/// direct call, marked as b says, its ConfigureAwait removed.
/// awaiter:   [S, a] call [Unsafe]AwaitAwaiter(a)
///        ⇒  stloc a; spill S; ldloc a; ldarg chain; call AwaitBridge.[Unsafe]SuspendOnAwaiter(a, ref chain);
///           brfalse CONTINUE; CONTINUE: reload S
/// </code>
/// </summary>
internal static class AwaitNormalizer
{
    public static IReadOnlyList<NormalizedAwait> Normalize(
        VariantDeclaration declaration,
        IReadOnlyList<AwaitSite> sites,
        VariantMap variants,
        RuntimeReferences runtime,
        bool continueOnCapturedContext,
        ICollection<Diagnostic> diagnostics)
    {
        var variant = declaration.Variant;
        var body = variant.Body;
        var chain = variant.Parameters[^2];
        var module = variant.Module;
        var result = new List<NormalizedAwait>();
        // Taken before the body changes: the edits below put each call's replacement where the
        // call was, inside the same regions.
        var callsUnderFilters = CallsUnderFilters(body, sites);
        var statementStarts = StatementStarts(variant);
        int state = 0;
        foreach (var site in sites)
        {
            state++;
            if (site.StackBelow.FirstOrDefault(IsByRef) is { } byRef)
            {
                diagnostics.Add(Diagnostics.AtAwait(declaration.Original, site,
                    DiagnosticCodes.ByRefAcrossAwait, $"a managed pointer ({byRef.FullName}) is on the evaluation stack across this await."));
                continue;
            }
            if (site.StackBelow.FirstOrDefault(TypeResolution.IsByRefLike) is { } refStruct)
            {
                // text.AsSpan().IndexOf(await F()): classic C# rejects it (CS4007), the runtime-async compiler does not.
                diagnostics.Add(Diagnostics.AtAwait(declaration.Original, site, DiagnosticCodes.ByRefAcrossAwait,
                    $"a ref struct ({refStruct.FullName}) computed before this await is used after it; its value cannot be kept in a continuation (classic C# rejects this, CS4007). Await into a local first, then create the {refStruct.Name}."));
                continue;
            }

            if (site.StackBelow.FirstOrDefault(type => !TypeResolution.TryLearnValueType(type)) is { } unknown)
            {
                diagnostics.Add(Diagnostics.AtAwait(declaration.Original, site, DiagnosticCodes.ReferenceNotFound,
                    $"{unknown.FullName} is on the evaluation stack across this await, and its assembly ({unknown.Scope.Name}) cannot be found to tell whether it is a value type. "
                    + $"Put {unknown.Scope.Name}.dll beside the input, pass it with --reference, or rewrite through Async2.Build, which passes the project's references."));
                continue;
            }
            var spilled = site.StackBelow.Select(t => NewLocal(body, SpillType(module, t))).ToList();
            // An explicit ConfigureAwait on the call wins over a ConfigureAwait attribute, as on any awaitable.
            bool awaitContinuesOnContext = continueOnCapturedContext;
            var before = new List<Instruction>();
            var after = new List<Instruction>();
            var reloads = spilled.Select(local => Instruction.Create(OpCodes.Ldloc, local)).ToList();
            var next = site.Await.Next;
            // int b = await F(); with values of earlier statements under b: they are reloaded after
            // b's store, where the next statement starts, rather than before (MoveStatementStart).
            var statementAfterStore = site.ResultStoredAtOnce && reloads.Count > 0 && site.StackBelowFromEarlierStatements
                && next.Next is { } store && statementStarts.ContainsKey(store) ? store : null;
            if (statementAfterStore is null)
                after.AddRange(reloads);

            VariableDefinition? resultTemp = null;
            // Where the values the await leaves on the stack start to be loaded, from an empty stack,
            // when classic async keeps them all in its state machine (MoveStatementStart).
            bool classicStartsOnEmptyStack = site.StackBelowFromEarlierStatements
                && (site.Result.MetadataType == MetadataType.Void || site.ResultKeptAcrossAwait);
            Instruction? loadsStart = classicStartsOnEmptyStack ? reloads.FirstOrDefault() : null;
            switch (site.Kind)
            {
                case AwaitKind.DirectCall:
                {
                    var call = site.Call!;
                    var target = (MethodReference)call.Operand;
                    var callee = variants.VariantCalledBy(call, site.Callee!);
                    bool guardFromFilters = callsUnderFilters.Contains(call);
                    bool checksReceiver = ChecksReceiver(call, target, callee);
                    var sequence = new List<Instruction>();
                    List<VariableDefinition> arguments = [];
                    if (spilled.Count > 0 || guardFromFilters || checksReceiver)
                    {
                        arguments = Arguments(target).Select(t => NewLocal(body, t)).ToList();
                        sequence.AddRange(Enumerable.Reverse(arguments).Select(a => Instruction.Create(OpCodes.Stloc, a)));
                        sequence.AddRange(Enumerable.Reverse(spilled).Select(s => Instruction.Create(OpCodes.Stloc, s)));
                    }
                    int guardedFrom = sequence.Count;
                    var loadArguments = arguments.Select(a => Instruction.Create(OpCodes.Ldloc, a)).ToList();
                    if (checksReceiver)
                        sequence.AddRange([
                            Instruction.Create(OpCodes.Ldloc, arguments[0]),
                            Instruction.Create(OpCodes.Brtrue, loadArguments[0]),
                            Instruction.Create(OpCodes.Newobj, runtime.NullReferenceExceptionCtor),
                            Instruction.Create(OpCodes.Throw),
                        ]);
                    sequence.AddRange(loadArguments);
                    sequence.Add(Instruction.Create(OpCodes.Ldarg, chain));
                    // A variant is static (its this is its first parameter); entries are instance methods.
                    sequence.AddRange(callee.AfterChain(instanceCall: call.OpCode));
                    if (site.Result.MetadataType != MetadataType.Void)
                    {
                        resultTemp = NewLocal(body, site.Result);
                        sequence.Add(Instruction.Create(OpCodes.Stloc, resultTemp));
                        after.Add(Instruction.Create(OpCodes.Ldloc, resultTemp));
                        if (site.ResultKeptAcrossAwait)
                            loadsStart = after[0];
                    }
                    if (guardFromFilters)
                        // ReplaceWith turns the call itself into the sequence's first instruction.
                        CatchAndRethrow(body, runtime, sequence, guardedFrom == 0 ? call : sequence[guardedFrom]);
                    BodyEditing.ReplaceWith(body, call, sequence);
                    if (site.ConfigureAwaitCode is { } configure)
                    {
                        // ConfigureAwait goes; whether the caller comes back to its context is recorded below.
                        foreach (var removed in configure)
                            (removed.OpCode, removed.Operand) = (OpCodes.Nop, null);
                        awaitContinuesOnContext = site.ConfiguredContinueOnCapturedContext!.Value;
                    }
                    before.Add(Instruction.Create(OpCodes.Ldarg, chain));
                    before.Add(Instruction.Create(OpCodes.Ldfld, runtime.Head));
                    break;
                }
                case AwaitKind.Awaitable:
                case AwaitKind.Awaiter:
                {
                    bool awaiter = site.Kind == AwaitKind.Awaiter;
                    var operand = NewLocal(body, site.Operand);
                    // Only plain Tasks and ValueTasks have a bridge without the captured context:
                    // an explicit ConfigureAwait form falls back to Suspend and keeps its own choice.
                    var suspend = awaiter
                        ? runtime.Bridge(site.FlowsContext ? "SuspendOnAwaiter" : "UnsafeSuspendOnAwaiter", site.Operand, operandIsTypeArgument: true)
                        : (continueOnCapturedContext ? null : runtime.Bridge("SuspendWithoutCapturedContext", site.Operand, operandIsTypeArgument: false))
                          ?? runtime.Bridge("Suspend", site.Operand, operandIsTypeArgument: false);
                    var getResult = awaiter ? null : runtime.Bridge("GetResult", site.Operand, operandIsTypeArgument: false);
                    if (suspend is null || (!awaiter && getResult is null))
                    {
                        diagnostics.Add(Diagnostics.AtAwait(declaration.Original, site, DiagnosticCodes.UnknownAwaitShape,
                            $"Async2 has no bridge for awaiting {site.Operand.FullName}."));
                        continue;
                    }
                    before.Add(Instruction.Create(OpCodes.Stloc, operand));
                    before.AddRange(Enumerable.Reverse(spilled).Select(s => Instruction.Create(OpCodes.Stloc, s)));
                    before.Add(Instruction.Create(OpCodes.Ldloc, operand));
                    before.Add(Instruction.Create(OpCodes.Ldarg, chain));
                    before.Add(Instruction.Create(OpCodes.Call, suspend));
                    if (getResult is not null)
                    {
                        // The result is taken before the spilled values are reloaded (only locals
                        // are read in between), so that reloading them starts on an empty stack;
                        // and kept in a local when it stays on the stack to a later await, so
                        // that a statement right after the await can start on an empty stack
                        // after GetResult, which throws on the await's line.
                        after.InsertRange(0, [Instruction.Create(OpCodes.Ldloc, operand), Instruction.Create(OpCodes.Call, getResult)]);
                        if (site.Result.MetadataType != MetadataType.Void && ((reloads.Count > 0 && statementAfterStore is null) || site.ResultKeptAcrossAwait))
                        {
                            var taken = NewLocal(body, site.Result);
                            var load = Instruction.Create(OpCodes.Ldloc, taken);
                            after.Insert(2, Instruction.Create(OpCodes.Stloc, taken));
                            after.Add(load);
                            if (site.ResultKeptAcrossAwait)
                                loadsStart ??= load;
                        }
                    }
                    break;
                }
            }

            if (after.Count == 0)
                after.Add(Instruction.Create(OpCodes.Nop));
            var check = Instruction.Create(OpCodes.Brfalse, after[0]);
            before.Add(check);
            BodyEditing.ReplaceWith(body, site.Await, [.. before, .. after]);
            if (statementAfterStore is not null)
            {
                BodyEditing.InsertAfter(body, next, reloads);
                MoveStatementStart(variant, statementStarts[statementAfterStore], reloads[0]);
                statementStarts.Remove(statementAfterStore);
            }
            else if (loadsStart is not null && next is not null && statementStarts.Remove(next, out var statement))
                MoveStatementStart(variant, statement, loadsStart);
            result.Add(new NormalizedAwait(state, site, check, after[0], resultTemp, awaitContinuesOnContext));
        }
        return result;
    }

    /// <summary>
    /// The instructions where a statement starts (a visible sequence point), bound to their
    /// instructions rather than to offsets, which the edits below change.
    /// </summary>
    private static Dictionary<Instruction, SequencePoint> StatementStarts(MethodDefinition variant)
    {
        if (!variant.DebugInformation.HasSequencePoints)
            return [];
        BodyEditing.NumberOffsets(variant.Body);
        var byOffset = variant.Body.Instructions.ToDictionary(instruction => instruction.Offset);
        var starts = new Dictionary<Instruction, SequencePoint>();
        foreach (var point in variant.DebugInformation.SequencePoints)
            if (!point.IsHidden && byOffset.TryGetValue(point.Offset, out var at))
                starts[at] = point;
        return starts;
    }

    /// <summary>
    /// A statement that starts right after an await with values still on the evaluation stack
    /// has its sequence point on an instruction where the stack is not empty. The compiler's
    /// Release code keeps a local there: one of an earlier statement (<c>var e = ...; await F();
    /// throw e;</c>), or the await's own result (<c>int a = await F(); Check(a); return a + await
    /// G();</c>, a <c>dup</c> of it starting <c>Check(a)</c>). The JIT maps code to IL only at
    /// empty-stack points and calls, and the load of those values, from the locals the rewrite
    /// keeps them in, is the first such point after the await: without the statement's line
    /// there, its code would be reported on the await's line. Classic async keeps such values in
    /// its state machine when they live across an await, so its statement starts on an empty
    /// stack, on its own line: the load is then the statement's start, the compiler's instruction
    /// no longer. A result used up before the next await stays on the stack in classic's code
    /// too, where the JIT reports the await's line, and so does the rewrite.
    /// </summary>
    private static void MoveStatementStart(MethodDefinition variant, SequencePoint statement, Instruction reload)
    {
        var points = variant.DebugInformation.SequencePoints;
        points.Insert(points.IndexOf(statement), BodyEditing.CopySequencePoint(statement, reload));
        points.Remove(statement);
    }

    /// <summary>
    /// The direct calls among <paramref name="sites"/> that an exception filter guards. Classic async's builder catches
    /// every exception an async method throws, so the callee's finally blocks (a using's Dispose, a
    /// lock's release) have run before any caller's filter sees the exception. A variant called
    /// directly is an ordinary frame on the stack: the runtime's first pass would run the caller's
    /// filter while the callee's finally blocks are still to run.
    /// </summary>
    private static HashSet<Instruction> CallsUnderFilters(MethodBody body, IReadOnlyList<AwaitSite> sites)
    {
        if (!body.ExceptionHandlers.Any(h => h.HandlerType == ExceptionHandlerType.Filter))
            return [];
        var regions = ProtectedRegions.Compute(body);
        return sites
            .Where(site => site.Kind == AwaitKind.DirectCall && regions.Regions.Any(r =>
                r.Handler.HandlerType == ExceptionHandlerType.Filter && r.TryContains(regions.IndexOf[site.Call!])))
            .Select(site => site.Call!)
            .ToHashSet();
    }

    /// <summary>
    /// Puts the rest of <paramref name="sequence"/> from <paramref name="tryStart"/> on (the call,
    /// its arguments reloaded from locals, the store of its result) in a <c>catch (object) { rethrow; }</c>
    /// (<see cref="RethrowingHandler"/>): the runtime's first pass stops there, the callee's finally
    /// blocks run, and the rethrow then reaches the filters, in classic async's order. Costs a
    /// rethrow per exception, only here.
    /// </summary>
    private static void CatchAndRethrow(MethodBody body, RuntimeReferences runtime, List<Instruction> sequence, Instruction tryStart)
    {
        var (handler, afterHandler) = RethrowingHandler.Create(body, runtime);
        var next = Instruction.Create(OpCodes.Nop);
        sequence.Add(Instruction.Create(OpCodes.Leave, next));
        sequence.AddRange(handler);
        sequence.AddRange(afterHandler);
        sequence.Add(next);
        // Innermost region: listed before every region that encloses it, as ECMA-335 requires.
        body.ExceptionHandlers.Insert(0, new ExceptionHandler(ExceptionHandlerType.Catch)
        {
            TryStart = tryStart,
            TryEnd = handler[0],
            HandlerStart = handler[0],
            HandlerEnd = afterHandler[0],
            CatchType = body.Method.Module.TypeSystem.Object,
        });
    }

    /// <summary>
    /// Whether the call of M' replacing <paramref name="call"/> must test the receiver for null
    /// first: a <c>callvirt</c> of a class's M threw before any of M ran, and the static M' tests
    /// nothing on a fresh call, since M's Task thunk, reached by a <c>call</c>, a delegate or
    /// reflection, runs M's body with a null <c>this</c> as classic async's stub does. Entries are
    /// called with <c>callvirt</c>; a variant called with a continuation (another assembly's, or
    /// one of a method that creates a closure) tests its <c>this</c> itself (MethodRewriter).
    /// </summary>
    private static bool ChecksReceiver(Instruction call, MethodReference target, CalledVariant callee) =>
        call.OpCode.Code == Code.Callvirt && target.HasThis && !target.DeclaringType.IsValueType
        && !callee.Method.HasThis && !callee.TakesResume;

    /// <summary>The argument types of a call, <c>this</c> first, as instantiated at the call.</summary>
    private static List<TypeReference> Arguments(MethodReference call)
    {
        var types = new List<TypeReference>();
        if (call.HasThis)
            types.Add(call.DeclaringType.IsValueType ? new ByReferenceType(call.DeclaringType) : call.DeclaringType);
        types.AddRange(call.Parameters.Select(p => TypeResolution.InContextOf(p.ParameterType, call)));
        return types;
    }

    private static TypeReference SpillType(ModuleDefinition module, TypeReference type) =>
        type == StackTypes.NullType ? module.TypeSystem.Object : type;

    private static bool IsByRef(TypeReference type) => type is ByReferenceType or PointerType || type.MetadataType == MetadataType.TypedByReference;

    private static VariableDefinition NewLocal(MethodBody body, TypeReference type)
    {
        var local = new VariableDefinition(type);
        body.Variables.Add(local);
        return local;
    }
}
