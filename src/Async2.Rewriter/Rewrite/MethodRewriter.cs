using Async2.Rewriter.Analysis;
using Async2.Rewriter.Emit;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Mono.Cecil.Rocks;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Rewrites one runtime-async method. Reads as the outline of the transformation:
/// analyse the original body (stack types, await sites), move it into the variant, normalize
/// the awaits (after giving the throws in its own catch handlers a way out for when the stack
/// runs low), compute liveness, lay out the continuation, copy the body into the fresh-call
/// variant, emit suspension and resumption in the variant and out-of-line suspensions in the copy
/// (and record their source lines for logical stack traces), bracket both with a context scope
/// (compatible context mode only), give the continuation the cheap way for an exception to pass
/// through a suspended frame, and finally turn the original method into the Task thunk.
/// </summary>
internal static class MethodRewriter
{
    /// <param name="isRecursive">Whether M can reach itself through other rewritten methods (<see cref="Recursion"/>), and so needs the stack guard.</param>
    public static MethodOutcome Rewrite(VariantDeclaration declaration, VariantMap variants, bool isRecursive, RuntimeReferences runtime, ICollection<Diagnostic> diagnostics)
    {
        var original = declaration.Original;
        int errorsBefore = diagnostics.Count;

        // Analyse.
        original.Body.SimplifyMacros();
        ReportUnsupportedInstructions(original, diagnostics);
        NameOriginalAsCurrentMethod(original, runtime);
        StackTypes stack;
        try
        {
            stack = StackTypes.Compute(original);
        }
        catch (Exception e) when (e is NotSupportedException or ArgumentOutOfRangeException or InvalidCastException && !DamagedInput.IsReadFailure(e))
        {
            diagnostics.Add(Diagnostics.At(original, null, DiagnosticCodes.UnanalysableStack,
                $"the evaluation stack could not be typed: {e.Message}"));
            return Failed(original);
        }
        var sites = AwaitSites.Find(original, stack, variants.CallTarget, diagnostics);
        if (diagnostics.Count > errorsBefore)
            return Failed(original);
        var origins = AwaitReport.Before(sites, variants);
        var start = Diagnostics.SourceOf(original, null);

        // Flowing context mode leaves context changes to the caller: no scope puts them back.
        bool flowsContexts = ScopedAttributes.FlowsContexts(original);
        bool mayChangeContexts = ContextScopeEmitter.MayChangeContexts(original, sites);
        bool needsContextScope = !flowsContexts && mayChangeContexts;

        // Rewrite: the variant takes over the body, in canonical await form.
        MoveBody(declaration);
        HandlerThrowEmitter.Emit(declaration.Variant, runtime);
        var awaits = AwaitNormalizer.Normalize(declaration, sites, variants, runtime,
            ScopedAttributes.ContinuesOnCapturedContext(original), diagnostics);
        if (diagnostics.Count > errorsBefore)
            return Failed(original);
        if (isRecursive)
            awaits = StackGuardEmitter.Add(declaration, awaits, runtime);

        var (captured, keepsSelf) = CapturedVariables(declaration, awaits, diagnostics);
        if (diagnostics.Count > errorsBefore)
            return Failed(original);

        var layout = ContinuationLayout.Build(declaration, captured.Values, keepsSelf, runtime);
        var fresh = declaration.Fresh is null ? null : BodyCopy.Make(declaration.Variant, declaration.Fresh);
        int contextFlags = (flowsContexts ? RuntimeNames.FlowsContextsToCallerFlag : 0) | (needsContextScope ? RuntimeNames.HasContextScopeFlag : 0);
        var outOfLine = new OutOfLineSuspensions(declaration, captured, layout, runtime);
        var resumedAwaits = SuspensionEmitter.Emit(declaration, awaits, captured, outOfLine, layout, contextFlags, runtime);
        if (fresh is not null)
            SuspensionEmitter.EmitOutOfLine(declaration, fresh, awaits, captured, outOfLine, contextFlags);
        SuspensionPointsEmitter.Emit(declaration, awaits, origins, start, runtime);
        bool runsClassConstructor = NeedsClassInitialization(original);
        foreach (var (method, chain) in declaration.Bodies)
        {
            if (needsContextScope)
                ContextScopeEmitter.Emit(method, chain, declaration.Shape, runtime);
            if (method == declaration.Variant && declaration.Self is not null && !declaration.SelfIsManagedPointer)
                EmitNullCheck(declaration, runtime);
            if (runsClassConstructor)
                EmitClassInitialization(method, declaration, runtime);
            method.Body.OptimizeMacros();
        }
        PassThroughEmitter.Emit(declaration, resumedAwaits, runtime);
        TaskThunkEmitter.Emit(declaration, runtime, mayChangeContexts, needsContextScope);

        int direct = sites.Count(s => s.Kind == AwaitKind.DirectCall);
        return new MethodOutcome(Diagnostics.Describe(original), true, sites.Count, direct, null)
        {
            Awaits = AwaitReport.Describe(declaration, awaits, captured, origins),
            Continuation = declaration.Continuation.FullName,
            StackGuard = awaits.Any(a => a.Site.Kind == AwaitKind.StackGuard),
            ContextScope = needsContextScope,
        };
    }

    /// <summary>
    /// <c>MethodBase.GetCurrentMethod()</c> in M's body becomes
    /// <c>MethodBase.GetMethodFromHandle(methodof(M), typeof(Owner))</c>: the body runs as the
    /// variant, which the caller should not see; this returns M, as the runtime's own runtime async
    /// does, and like it M's definition in generic code (classic async returns its state machine's
    /// MoveNext). Only the call sites change, so no other code pays for it, and a token load is
    /// cheaper than the stack walk it replaces.
    /// </summary>
    private static void NameOriginalAsCurrentMethod(MethodDefinition original, RuntimeReferences runtime)
    {
        var il = original.Body.GetILProcessor();
        foreach (var call in original.Body.Instructions.Where(IsGetCurrentMethod).ToList())
        {
            // The call instruction itself becomes the first load, so branches to it stay valid.
            call.OpCode = OpCodes.Ldtoken;
            call.Operand = original;
            var typeToken = il.Create(OpCodes.Ldtoken, original.DeclaringType);
            il.InsertAfter(call, typeToken);
            il.InsertAfter(typeToken, il.Create(OpCodes.Call, runtime.MethodFromHandle));
        }
    }

    private static bool IsGetCurrentMethod(Instruction instruction) =>
        instruction.OpCode.Code == Code.Call
        && instruction.Operand is MethodReference { Name: "GetCurrentMethod", Parameters.Count: 0 } method
        && method.DeclaringType.FullName == "System.Reflection.MethodBase";

    private static MethodOutcome Failed(MethodDefinition method) =>
        new(Diagnostics.Describe(method), false, 0, 0, "see diagnostics");

    /// <summary>
    /// What must survive each suspension: the locals and arguments live where execution continues,
    /// except the await's own result (delivered on resumption) and the variant's chain and resume
    /// parameters; and whether a class's <c>this</c> is live at any of them, kept apart in the
    /// continuation's self field. A live managed pointer cannot be stored in a heap object and is reported.
    /// </summary>
    private static (Dictionary<NormalizedAwait, IReadOnlyList<object>> Captured, bool KeepsSelf) CapturedVariables(
        VariantDeclaration declaration, IReadOnlyList<NormalizedAwait> awaits, ICollection<Diagnostic> diagnostics)
    {
        bool keepsSelf = false;
        var variant = declaration.Variant;
        var body = variant.Body;
        var liveness = Liveness.Compute(body);
        Liveness? valuesKept = null;
        int ownParameters = variant.Parameters.Count - 2;
        var result = new Dictionary<NormalizedAwait, IReadOnlyList<object>>();
        foreach (var point in awaits)
        {
            var variables = new List<object>();
            foreach (int v in liveness.LiveBefore(point.Continue))
            {
                object variable;
                TypeReference type;
                if (v < liveness.LocalCount)
                {
                    var local = body.Variables[v];
                    if (local == point.ResultTemp)
                        continue;
                    (variable, type) = (local, local.VariableType);
                }
                else
                {
                    int index = v - liveness.LocalCount;
                    var parameter = variant.Parameters[index];
                    if (parameter == declaration.Self && declaration.SelfIsManagedPointer)
                    {
                        // A struct's this is a managed pointer into its caller. Roslyn copies it into a
                        // local before the first await, so the pointer is never needed after one.
                        diagnostics.Add(Diagnostics.AtAwait(declaration.Original, point.Site, DiagnosticCodes.ByRefAcrossAwait,
                            $"this (a managed pointer to a {declaration.Original.DeclaringType.FullName}) is live across this await."));
                        continue;
                    }
                    if (parameter == declaration.Self)
                    {
                        keepsSelf = true; // a class's this, kept in the continuation's self field
                        continue;
                    }
                    if (index >= ownParameters)
                        continue; // chain or resume
                    (variable, type) = (parameter, parameter.ParameterType);
                }
                bool refStruct = TypeResolution.IsByRefLike(type);
                if (refStruct || type is ByReferenceType or PointerType or PinnedType || type.IsPinned)
                {
                    // No continuation can hold it. The plain liveness errs on the side of keeping (an
                    // address taken is a use, a finally runs on towards every exit): what the narrower
                    // one still finds live is really needed after the await, which classic C# rejects
                    // (CS4007) and the runtime-async compiler of SDK 10.0.401 accepts for ref structs.
                    valuesKept ??= Liveness.Compute(body, valuesKeptOnly: true);
                    if (valuesKept.LiveBefore(point.Continue).Contains(v))
                        diagnostics.Add(Diagnostics.AtAwait(declaration.Original, point.Site, DiagnosticCodes.ByRefAcrossAwait, refStruct
                            ? $"{Describe(variable, declaration)}, a ref struct ({type.FullName}), is live across this await; its value cannot be kept in a continuation (classic C# rejects this, CS4007). Create it again after the await, or keep it on one side of the await."
                            : $"a managed pointer or pinned local ({type.FullName}) is live across this await."));
                    continue;
                }
                variables.Add(variable);
            }
            result[point] = variables;
        }
        return (result, keepsSelf);
    }

    /// <summary>A variable as its source names it, where the PDB tells.</summary>
    private static string Describe(object variable, VariantDeclaration declaration) => variable switch
    {
        ParameterDefinition parameter => $"parameter {parameter.Name}",
        VariableDefinition local when declaration.SourceName(local) is { } name => $"local '{name}'",
        VariableDefinition local => $"local {local.Index}",
        _ => "a variable",
    };

    private static void ReportUnsupportedInstructions(MethodDefinition method, ICollection<Diagnostic> diagnostics)
    {
        foreach (var instruction in method.Body.Instructions)
        {
            string? why = instruction.OpCode.Code switch
            {
                Code.Tail => "the tail. prefix is not permitted in async2 methods",
                Code.Jmp => "jmp cannot be carried into the async2 variant",
                Code.Arglist => "varargs methods cannot be async2 methods",
                _ => null,
            };
            if (why is not null)
                diagnostics.Add(Diagnostics.At(method, instruction, DiagnosticCodes.UnsupportedInstruction, why + "."));
        }
    }

    /// <summary>
    /// <c>if (this == null &amp;&amp; resume == null) throw new NullReferenceException();</c> first in
    /// M' (not in its fresh-call twin): callers in other assemblies call M' in place of a
    /// <c>callvirt M</c>, which threw before any of M ran, and the cross-assembly contract keeps
    /// that test here. Callers in this module test the receiver themselves (AwaitNormalizer), so
    /// that M's Task thunk, reached with a null <c>this</c> by a <c>call</c>, a delegate or
    /// reflection, runs M's body as classic's stub does; a resumed frame may hold that null. The
    /// thunk of a method that creates a closure calls M' itself, so there it still throws.
    /// </summary>
    private static void EmitNullCheck(VariantDeclaration declaration, RuntimeReferences runtime)
    {
        var variant = declaration.Variant;
        var first = variant.Body.Instructions[0];
        BodyEditing.InsertAtEntry(variant.Body,
        [
            Instruction.Create(OpCodes.Ldarg, declaration.Self!),
            Instruction.Create(OpCodes.Brtrue, first),
            Instruction.Create(OpCodes.Ldarg, variant.Parameters[^1]),
            Instruction.Create(OpCodes.Brtrue, first),
            Instruction.Create(OpCodes.Newobj, runtime.NullReferenceExceptionCtor),
            Instruction.Create(OpCodes.Throw),
        ]);
    }

    /// <summary>
    /// A static method of a type with a static constructor and no beforefieldinit: calling M ran
    /// that constructor first (ECMA-335 II.10.5.3.1), but callers call M' on the continuation
    /// class, whose initialization runs none of the owner's.
    /// </summary>
    private static bool NeedsClassInitialization(MethodDefinition original) =>
        (original.IsStatic || original.DeclaringType.IsValueType) && !original.DeclaringType.IsBeforeFieldInit && original.DeclaringType.Methods.Any(m => m.IsConstructor && m.IsStatic);

    /// <summary>
    /// A call (not a resumption: a resumed classic state machine runs no check of its owner either)
    /// starts by touching the owner, which runs its static constructor on the first call, as the
    /// caller's call of M did: a load of one of its static fields, which the JIT drops once the type
    /// is initialized, or, for a type without one, RuntimeHelpers.RunClassConstructor. Nothing is
    /// added to the owner, whose members reflection lists.
    /// </summary>
    private static void EmitClassInitialization(MethodDefinition body, VariantDeclaration declaration, RuntimeReferences runtime)
    {
        var owner = declaration.Original.DeclaringType;
        var ownerType = declaration.InContinuation(TypeResolution.SelfInstance(owner));
        var field = owner.Fields.FirstOrDefault(f => f.IsStatic && !f.IsLiteral && !f.CustomAttributes.Any(a => a.AttributeType.FullName == "System.ThreadStaticAttribute"));
        List<Instruction> touch = field is null
            ? [Instruction.Create(OpCodes.Ldtoken, ownerType), Instruction.Create(OpCodes.Call, runtime.RunClassConstructor)]
            : [Instruction.Create(OpCodes.Ldsflda, new FieldReference(field.Name, field.FieldType, ownerType)), Instruction.Create(OpCodes.Pop)];
        if (body == declaration.Variant)
            touch.InsertRange(0, [Instruction.Create(OpCodes.Ldarg, body.Parameters[^1]), Instruction.Create(OpCodes.Brtrue, body.Body.Instructions[0])]);
        BodyEditing.InsertAtEntry(body.Body, touch);
    }

    /// <summary>Moves instructions, locals, handlers and debug information from the original to its variant.</summary>
    private static void MoveBody(VariantDeclaration declaration)
    {
        var (original, variant) = (declaration.Original, declaration.Variant);
        var from = original.Body;
        var to = variant.Body;
        to.InitLocals = true;
        foreach (var local in from.Variables)
            to.Variables.Add(local);
        int firstParameter = declaration.Self is null ? 0 : 1;
        foreach (var instruction in from.Instructions)
        {
            if (instruction.Operand is ParameterDefinition parameter)
                instruction.Operand = parameter == from.ThisParameter ? declaration.Self : variant.Parameters[firstParameter + parameter.Index];
            to.Instructions.Add(instruction);
        }
        foreach (var handler in from.ExceptionHandlers)
            to.ExceptionHandlers.Add(handler);

        var debug = original.DebugInformation;
        foreach (var point in debug.SequencePoints)
            variant.DebugInformation.SequencePoints.Add(point);
        variant.DebugInformation.Scope = debug.Scope;
        debug.SequencePoints.Clear();
        debug.Scope = null;
        original.Body = new MethodBody(original);
    }
}
