using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Mono.Cecil.Rocks;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Second rewrite pass: turns each normalized await into a suspension point and makes the
/// variant re-enterable at each one. Suspension and resumption are emitted side by side:
/// <code>
///     CHECK:    brfalse CONTINUE                       (from AwaitNormalizer)
///     SUSPEND:  cont = resume ?? new &lt;M&gt;d__Async2();    reuse the frame's own record when resumed
///               cont.StateAndFlags = k &lt;&lt; 3 | flags; cont.self = this; cont.field_v = v ...
///                   (flags: HandlesExceptions inside a try, FlowsContextsToCaller in flowing mode, HasContextScope)
///               chain.Link(cont) (LinkAwaitingCallee at a direct call); [suspending = true]; leave EXIT
///     RESUME_k: v = resume.field_v ...; state = 0; [r = chain.GetResult&lt;T&gt;()]
///     CONTINUE: ...
/// </code>
/// Entry: <c>if (resume != null) goto DISPATCH</c>; DISPATCH switches on the state (resume.StateAndFlags &gt;&gt; 3) to
/// RESUME_k, or, when the await is inside trys, to the first instruction of the outermost one,
/// where a prologue switches again (IL allows entering a try only at its first instruction).
/// Finally and fault handlers around an await skip their body while the frame is suspending,
/// since leaving the try to suspend is not leaving it for good.
/// The fresh-call variant, a copy of the body taken before this pass, gets the suspension half
/// only, out of line (<see cref="EmitOutOfLine"/>): it is never resumed. Past
/// <see cref="InlineStoreBudget"/>, the variant's suspensions call the same out-of-line methods.
/// </summary>
internal static class SuspensionEmitter
{
    /// <returns>
    /// Per state that awaits another rewritten method, the call that rethrows the callee's
    /// exception at the resumed await (<c>chain.GetResult&lt;T&gt;()</c> or <c>chain.ThrowIfFaulted()</c>),
    /// whose source line the frame shows in stack traces (<see cref="PassThroughEmitter"/>).
    /// </returns>
    public static IReadOnlyDictionary<int, Instruction> Emit(
        VariantDeclaration declaration,
        IReadOnlyList<NormalizedAwait> awaits,
        IReadOnlyDictionary<NormalizedAwait, IReadOnlyList<object>> captured,
        OutOfLineSuspensions outOfLine,
        ContinuationLayout layout,
        int contextFlags,
        RuntimeReferences runtime)
    {
        var variant = declaration.Variant;
        var body = variant.Body;
        var module = variant.Module;
        var chain = variant.Parameters[^2];
        var resume = variant.Parameters[^1];
        var state = AddLocal(body, module.TypeSystem.Int32);
        var suspending = AddLocal(body, module.TypeSystem.Boolean);
        bool inline = FieldStores(awaits, captured, layout) <= InlineStoreBudget;
        var frame = inline ? AddLocal(body, declaration.ContinuationInMethod) : null;

        var exit = ExitBlock(body, declaration.Shape);
        var (statements, marked) = BodyEditing.StatementsAt(variant, awaits.Select(point => point.Check));
        var regions = ProtectedRegions.Compute(body);
        var resumeAt = new Dictionary<int, Instruction>();
        var rethrowAt = new Dictionary<int, Instruction>();
        foreach (var point in awaits)
        {
            var trys = regions.TrysEnclosing(regions.IndexOf[point.Check]);
            var flags = FlagsAt(trys.Count, contextFlags);
            var variables = captured[point];

            var code = new List<Instruction>();
            if (frame is not null)
            {
                code.AddRange(ReuseOrCreate(frame, resume, declaration));
                code.AddRange(FillAndLink(frame, point, flags, layout, declaration.Self,
                    variables.Select(v => (layout.FieldFor(v), (Func<Instruction>)(() => Load(v)))), layout.ReferencesNotHolding(variables),
                    resume, chain, runtime, skipUnchangedReferences: true));
            }
            else
                code.AddRange(CallOutOfLine(outOfLine.TakesSelf ? declaration.Self : null, variables, chain, Instruction.Create(OpCodes.Ldarg, resume), outOfLine.CalledFrom(variant, point, flags)));
            code.AddRange(LeaveToExit(trys, suspending, exit[0]));

            var restore = new List<Instruction>();
            foreach (var variable in variables)
            {
                restore.Add(Instruction.Create(OpCodes.Ldarg, resume));
                restore.Add(Instruction.Create(OpCodes.Ldfld, layout.FieldFor(variable)));
                restore.Add(Store(variable));
            }
            restore.Add(Instruction.Create(OpCodes.Ldc_I4_0));
            restore.Add(Instruction.Create(OpCodes.Stloc, state));
            if (point.Site.Kind == AwaitKind.DirectCall)
            {
                restore.Add(Instruction.Create(OpCodes.Ldarg, chain));
                var rethrow = Instruction.Create(OpCodes.Call, point.ResultTemp is { } result ? runtime.GetResult(result.VariableType) : runtime.ThrowIfFaulted);
                restore.Add(rethrow);
                if (point.ResultTemp is { } temp)
                    restore.Add(Instruction.Create(OpCodes.Stloc, temp));
                rethrowAt[point.State] = rethrow;
            }
            resumeAt[point.State] = restore[0];
            BodyEditing.InsertAfter(body, point.Check, [.. code, .. restore]);
            BodyEditing.HideAddedCode(variant, code[0], restore[0], statements[point.Check], marked);
        }

        GuardFinallyHandlers(body, awaits.Select(a => a.Check), suspending);
        var entries = EmitTryDispatch(body, awaits, resumeAt, state);
        EmitEntryDispatch(body, resume, state, entries, exit, runtime);
        BodyEditing.HideAddedCode(variant, exit[0]);
        BodyEditing.SortSequencePoints(variant);
        body.InitLocals = true;
        return rethrowAt;
    }

    /// <summary>
    /// At most this many frame field stores (<c>this</c> and the live variables, summed over the
    /// suspension points) are emitted inline in the variant; past it, each suspension calls its
    /// out-of-line method as the fresh-call variant does, at the price of a call per suspension and
    /// of the compares that spare a reused frame's unchanged references their write barriers.
    /// Inline, every store and its compare add to what the optimizing JIT tracks across the
    /// method's protected regions, and its time grows much faster than the stores do (measured in
    /// docs/design.md, Limitations).
    /// </summary>
    private const int InlineStoreBudget = 64;

    private static int FieldStores(IReadOnlyList<NormalizedAwait> awaits,
        IReadOnlyDictionary<NormalizedAwait, IReadOnlyList<object>> captured, ContinuationLayout layout) =>
        awaits.Sum(point => (layout.Self is null ? 0 : 1) + captured[point].Count);

    /// <summary>
    /// The fresh-call variant's suspensions (<see cref="VariantDeclaration.Fresh"/>), out of line:
    /// its body is the variant's as it was before <see cref="Emit"/>, copied by <paramref name="copy"/>.
    /// The fresh variant is never resumed, so it has no dispatch; each await gets one call to a
    /// static method of the continuation class that builds and links the frame:
    /// <code>
    ///     CHECK:    brfalse CONTINUE
    ///               call &lt;M&gt;s__SuspendK([this,] live variables.., ref chain, null); [suspending = true]; leave EXIT
    ///     CONTINUE: ...
    /// static void &lt;M&gt;s__SuspendK([this,] live variables.., ref AsyncChain chain, &lt;M&gt;d__Async2 reuse)   (NoInlining)
    ///     { cont = reuse ?? new &lt;M&gt;d__Async2(); cont.StateAndFlags = ...; ...as in M'...; chain.Link(cont); }
    /// </code>
    /// The frame resumes in M' at state k, with the same fields, flags and context as if M' had suspended.
    /// </summary>
    public static void EmitOutOfLine(
        VariantDeclaration declaration,
        BodyCopy copy,
        IReadOnlyList<NormalizedAwait> awaits,
        IReadOnlyDictionary<NormalizedAwait, IReadOnlyList<object>> captured,
        OutOfLineSuspensions outOfLine,
        int contextFlags)
    {
        var fresh = declaration.Fresh!;
        var body = fresh.Body;
        var chain = fresh.Parameters[^1];
        var suspending = AddLocal(body, fresh.Module.TypeSystem.Boolean);
        var exit = ExitBlock(body, declaration.Shape);
        var (statements, marked) = BodyEditing.StatementsAt(fresh, awaits.Select(point => copy.Map(point.Check)));
        var regions = ProtectedRegions.Compute(body);
        var self = outOfLine.TakesSelf ? copy.Map(declaration.Self!) : null;
        foreach (var point in awaits)
        {
            var check = copy.Map(point.Check);
            var trys = regions.TrysEnclosing(regions.IndexOf[check]);
            var code = CallOutOfLine(self, [.. captured[point].Select(copy.Map)], chain, Instruction.Create(OpCodes.Ldnull),
                outOfLine.CalledFrom(fresh, point, FlagsAt(trys.Count, contextFlags)));
            code.AddRange(LeaveToExit(trys, suspending, exit[0]));
            BodyEditing.InsertAfter(body, check, code);
            BodyEditing.HideAddedCode(fresh, code[0], (Instruction)check.Operand, statements[check], marked);
        }
        GuardFinallyHandlers(body, awaits.Select(a => copy.Map(a.Check)), suspending);
        BodyEditing.Append(body, exit);
        BodyEditing.HideAddedCode(fresh, exit[0]);
        BodyEditing.SortSequencePoints(fresh);
        body.InitLocals = true;
    }

    /// <summary><c>call &lt;M&gt;s__SuspendK([this,] variables.., ref chain, reuse)</c>; <paramref name="self"/> is null where the frame keeps no <c>this</c>.</summary>
    private static List<Instruction> CallOutOfLine(ParameterDefinition? self, IReadOnlyList<object> variables, ParameterDefinition chain,
        Instruction loadReuse, MethodReference suspension)
    {
        var code = new List<Instruction>();
        if (self is not null)
            code.Add(Instruction.Create(OpCodes.Ldarg, self));
        code.AddRange(variables.Select(Load));
        code.Add(Instruction.Create(OpCodes.Ldarg, chain));
        code.Add(loadReuse);
        code.Add(Instruction.Create(OpCodes.Call, suspension));
        return code;
    }

    /// <summary><c>[suspending = true;] leave EXIT</c> (<c>br</c> outside any try); finally handlers test suspending.</summary>
    private static IEnumerable<Instruction> LeaveToExit(IReadOnlyList<ProtectedRegion> trys, VariableDefinition suspending, Instruction exit)
    {
        if (trys.Any(r => r.RunsOnLeave))
        {
            yield return Instruction.Create(OpCodes.Ldc_I4_1);
            yield return Instruction.Create(OpCodes.Stloc, suspending);
        }
        yield return Instruction.Create(trys.Count > 0 ? OpCodes.Leave : OpCodes.Br, exit);
    }

    /// <summary>
    /// <c>frame.StateAndFlags = k &lt;&lt; 3 | flags; frame.self = this; frame.field_v = v ...; chain.Link(frame)</c>,
    /// or LinkAwaitingCallee at a direct call: a frame awaiting another variant must come back to its
    /// SynchronizationContext or TaskScheduler whatever its callee does (unless a ConfigureAwait(false)
    /// attribute applies); bridged awaits leave that to their awaiter.
    /// </summary>
    /// <param name="skipUnchangedReferences">
    /// Whether to store an object reference only if it differs from the frame's field: inline in
    /// the variant, where the frame may be the one it was resumed from, which already holds the
    /// values of whatever did not change since (arguments, loop invariants). The compare spares
    /// the GC write barrier a store into the heap costs. Out of line, mostly for new frames, the
    /// stores are plain.
    /// </param>
    /// <param name="stale">Fields to clear in a reused frame (<paramref name="reuse"/> not null): <see cref="ContinuationLayout.ReferencesNotHolding"/>.</param>
    internal static IEnumerable<Instruction> FillAndLink(VariableDefinition frame, NormalizedAwait point, int flags, ContinuationLayout layout,
        ParameterDefinition? self, IEnumerable<(FieldReference Field, Func<Instruction> Load)> values, IReadOnlyList<(FieldReference Field, TypeReference Type)> stale,
        ParameterDefinition reuse, ParameterDefinition chain, RuntimeReferences runtime, bool skipUnchangedReferences)
    {
        yield return Instruction.Create(OpCodes.Ldloc, frame);
        yield return Instruction.Create(OpCodes.Ldc_I4, point.State << RuntimeNames.FlagBits | flags);
        yield return Instruction.Create(OpCodes.Stfld, runtime.StateAndFlags);
        if (layout.Self is not null)
        {
            foreach (var instruction in StoreField(frame, layout.Self, () => Instruction.Create(OpCodes.Ldarg, self), skipUnchangedReferences))
                yield return instruction;
        }
        foreach (var (field, load) in values)
        {
            foreach (var instruction in StoreField(frame, field, load, skipUnchangedReferences))
                yield return instruction;
        }
        if (stale.Count > 0)
        {
            var cleared = Instruction.Create(OpCodes.Nop);
            yield return Instruction.Create(OpCodes.Ldarg, reuse);
            yield return Instruction.Create(OpCodes.Brfalse, cleared);
            foreach (var (field, type) in stale)
            {
                yield return Instruction.Create(OpCodes.Ldloc, frame);
                yield return Instruction.Create(OpCodes.Ldflda, field);
                yield return Instruction.Create(OpCodes.Initobj, type);
            }
            yield return cleared;
        }
        yield return Instruction.Create(OpCodes.Ldarg, chain);
        yield return Instruction.Create(OpCodes.Ldloc, frame);
        bool recordsContext = point.Site.Kind == AwaitKind.DirectCall && point.ContinuesOnCapturedContext;
        yield return Instruction.Create(OpCodes.Call, recordsContext ? runtime.LinkAwaitingCallee : runtime.Link);
    }

    /// <summary><c>frame.field = value</c>, or <c>if (frame.field != value) frame.field = value</c> for an object reference when skipping unchanged ones.</summary>
    private static IEnumerable<Instruction> StoreField(VariableDefinition frame, FieldReference field, Func<Instruction> load, bool skipUnchangedReferences)
    {
        var skip = Instruction.Create(OpCodes.Nop);
        bool compare = skipUnchangedReferences && TypeResolution.IsObjectReference(field.FieldType);
        if (compare)
        {
            yield return Instruction.Create(OpCodes.Ldloc, frame);
            yield return Instruction.Create(OpCodes.Ldfld, field);
            yield return load();
            yield return Instruction.Create(OpCodes.Beq, skip);
        }
        yield return Instruction.Create(OpCodes.Ldloc, frame);
        yield return load();
        yield return Instruction.Create(OpCodes.Stfld, field);
        if (compare)
            yield return skip;
    }

    /// <summary>HandlesExceptions inside a try, and the method's context flags (FlowsContextsToCaller, HasContextScope).</summary>
    private static int FlagsAt(int enclosingTrys, int contextFlags) =>
        (enclosingTrys > 0 ? RuntimeNames.HandlesExceptionsFlag : 0) | contextFlags;

    /// <summary><c>frame = reuse ?? new &lt;M&gt;d__Async2();</c></summary>
    internal static IEnumerable<Instruction> ReuseOrCreate(VariableDefinition frame, ParameterDefinition reuse, VariantDeclaration declaration)
    {
        var store = Instruction.Create(OpCodes.Stloc, frame);
        yield return Instruction.Create(OpCodes.Ldarg, reuse);
        yield return Instruction.Create(OpCodes.Dup);
        yield return Instruction.Create(OpCodes.Brtrue, store);
        yield return Instruction.Create(OpCodes.Pop);
        yield return Instruction.Create(OpCodes.Newobj,
            GenericContext.MethodOn(declaration.Continuation.Methods.Single(m => m.IsConstructor), declaration.ContinuationInMethod, []));
        yield return store;
    }

    /// <summary>
    /// <c>finally { if (suspending) endfinally; ...body }</c> for every finally or fault whose try holds an await.
    /// </summary>
    private static void GuardFinallyHandlers(MethodBody body, IEnumerable<Instruction> checks, VariableDefinition suspending)
    {
        var regions = ProtectedRegions.Compute(body);
        var guarded = regions.Regions
            .Where(r => r.RunsOnLeave && checks.Any(check => r.TryContains(regions.IndexOf[check])))
            .Select(r => r.Handler)
            .ToList();
        foreach (var handler in guarded)
        {
            var start = handler.HandlerStart;
            BodyEditing.Prepend(body, start, original =>
            [
                Instruction.Create(OpCodes.Ldloc, suspending),
                Instruction.Create(OpCodes.Brfalse, original),
                Instruction.Create(OpCodes.Endfinally),
            ], keepInside: _ => true);
        }
    }

    /// <summary>
    /// Gives every try block that holds an await a prologue switching on the resume state, and
    /// returns, per state, where the entry dispatch must jump (outermost try, or the resume code).
    /// </summary>
    private static Dictionary<int, Instruction> EmitTryDispatch(
        MethodBody body, IReadOnlyList<NormalizedAwait> awaits, Dictionary<int, Instruction> resumeAt, VariableDefinition state)
    {
        var regions = ProtectedRegions.Compute(body);
        // Try blocks are identified by their handlers (several handlers may share one try).
        var blocksOf = new Dictionary<int, List<ExceptionHandler[]>>();
        var blocks = new List<ExceptionHandler[]>();
        foreach (var point in awaits)
        {
            int index = regions.IndexOf[resumeAt[point.State]];
            var path = new List<ExceptionHandler[]>();
            foreach (var (start, end) in regions.TryBlocksEnclosing(index))
            {
                var handlers = regions.Regions.Where(r => r.TryStart == start && r.TryEnd == end).Select(r => r.Handler).ToArray();
                var known = blocks.FirstOrDefault(b => b[0] == handlers[0]);
                if (known is null)
                    blocks.Add(known = handlers);
                path.Add(known);
            }
            blocksOf[point.State] = path;
        }

        var ordered = blocks
            .OrderBy(b => regions.IndexOf[b[0].TryStart])
            .ThenByDescending(b => b[0].TryEnd is null ? int.MaxValue : regions.IndexOf[b[0].TryEnd])
            .ToList();
        int states = awaits.Count;
        foreach (var block in ordered)
        {
            var start = block[0].TryStart;
            var snapshot = ProtectedRegions.Compute(body);
            int EndOf(ExceptionHandler h) => h.TryEnd is null ? int.MaxValue : snapshot.IndexOf[h.TryEnd];
            int blockEnd = EndOf(block[0]);
            BodyEditing.Prepend(body, start, original =>
            {
                var table = new Instruction[states + 1];
                Array.Fill(table, original);
                foreach (var (k, path) in blocksOf)
                {
                    int depth = path.IndexOf(block);
                    if (depth < 0)
                        continue;
                    if (depth == path.Count - 1)
                        table[k] = resumeAt[k];
                    else
                    {
                        var inner = path[depth + 1][0].TryStart;
                        table[k] = inner == start ? original : inner;
                    }
                }
                return [Instruction.Create(OpCodes.Ldloc, state), Instruction.Create(OpCodes.Switch, table)];
            }, keepInside: h => !block.Contains(h) && EndOf(h) <= blockEnd);
        }

        var entries = new Dictionary<int, Instruction>();
        foreach (var (k, path) in blocksOf)
            entries[k] = path.Count == 0 ? resumeAt[k] : path[0][0].TryStart;
        return entries;
    }

    private static void EmitEntryDispatch(MethodBody body, ParameterDefinition resume, VariableDefinition state,
        Dictionary<int, Instruction> entries, IReadOnlyList<Instruction> exit, RuntimeReferences runtime)
    {
        var module = body.Method.Module;
        var invalid = new TypeReference("System", "InvalidOperationException", module, module.TypeSystem.CoreLibrary);
        var fail = Instruction.Create(OpCodes.Newobj, new MethodReference(".ctor", module.TypeSystem.Void, invalid) { HasThis = true });
        var table = new Instruction[entries.Count + 1];
        table[0] = fail;
        foreach (var (k, target) in entries)
            table[k] = target;

        var dispatch = new List<Instruction>
        {
            Instruction.Create(OpCodes.Ldarg, resume),
            Instruction.Create(OpCodes.Ldfld, runtime.StateAndFlags),
            Instruction.Create(OpCodes.Ldc_I4, RuntimeNames.FlagBits),
            Instruction.Create(OpCodes.Shr),
            Instruction.Create(OpCodes.Stloc, state),
            Instruction.Create(OpCodes.Ldloc, state),
            Instruction.Create(OpCodes.Switch, table),
            fail,
            Instruction.Create(OpCodes.Throw),
        };
        BodyEditing.InsertAtEntry(body,
        [
            Instruction.Create(OpCodes.Ldarg, resume),
            Instruction.Create(OpCodes.Brtrue, dispatch[0]),
        ]);
        BodyEditing.Append(body, [.. exit, .. dispatch]);
    }

    /// <summary>Where a suspending frame returns from: <c>return default;</c>.</summary>
    private static IReadOnlyList<Instruction> ExitBlock(MethodBody body, TaskShape shape)
    {
        if (!shape.HasResult)
            return [Instruction.Create(OpCodes.Ret)];
        var placeholder = AddLocal(body, shape.Result);
        return [Instruction.Create(OpCodes.Ldloc, placeholder), Instruction.Create(OpCodes.Ret)];
    }

    private static Instruction Load(object variable) => variable switch
    {
        VariableDefinition local => Instruction.Create(OpCodes.Ldloc, local),
        ParameterDefinition parameter => Instruction.Create(OpCodes.Ldarg, parameter),
        _ => throw new ArgumentException("not a variable", nameof(variable)),
    };

    private static Instruction Store(object variable) => variable switch
    {
        VariableDefinition local => Instruction.Create(OpCodes.Stloc, local),
        ParameterDefinition parameter => Instruction.Create(OpCodes.Starg, parameter),
        _ => throw new ArgumentException("not a variable", nameof(variable)),
    };

    internal static VariableDefinition AddLocal(MethodBody body, TypeReference type)
    {
        var local = new VariableDefinition(type);
        body.Variables.Add(local);
        return local;
    }
}
