using Mono.Cecil;
using Mono.Cecil.Cil;
using Mono.Cecil.Rocks;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Overrides <c>Continuation.PassFaultThrough</c> on M's continuation class: what a suspended frame
/// of M does when an exception it cannot catch passes through it after a suspension
/// (Async2.Runtime's PassThroughFrames.cs). Resuming the frame would run Resume and the variant,
/// two stack frames for the exception to unwind, only for the variant's resumed await to rethrow;
/// this rethrows from one, and that frame reads as M on the await's line in the stack trace, since
/// it is declared on the continuation class (docs/design.md, "The ABI") and each branch carries
/// the sequence point the variant's resumed await has:
/// <code>
/// public override void PassFaultThrough(ref AsyncChain chain)     // NoInlining, AggressiveOptimization
/// {
///     switch ((StateAndFlags &gt;&gt; 3) - 1) { case k - 1: goto AWAIT_k; ... }
///     Resume(ref chain); return;                 // a state that awaits no rewritten method
///     AWAIT_k: chain.ThrowIfFaulted(k); return;  // the sequence point of the variant's resumed await k
/// }
/// </code>
/// The state passed to ThrowIfFaulted keeps the branches apart: identical, the JIT may merge them
/// (.NET 11 does), and every await would show one await's line.
/// </summary>
internal static class PassThroughEmitter
{
    /// <param name="resumedAwaits">Per state awaiting a rewritten method, the variant's call that rethrows there (<see cref="SuspensionEmitter.Emit"/>).</param>
    public static void Emit(VariantDeclaration declaration, IReadOnlyDictionary<int, Instruction> resumedAwaits, RuntimeReferences runtime)
    {
        if (resumedAwaits.Count == 0)
            return;
        var type = declaration.Continuation;
        var module = type.Module;
        var method = new MethodDefinition("PassFaultThrough",
            MethodAttributes.Public | MethodAttributes.Virtual | MethodAttributes.HideBySig | MethodAttributes.Final,
            module.TypeSystem.Void)
        {
            // Inlined (guarded devirtualization can), it would be missing from the stack trace it is
            // for. Optimized from its first call: it runs once per exception passing through a frame
            // of this class, seldom enough to stay at Tier 0 for good, where the chain's rethrow
            // helpers are not inlined into it and would add two stack frames to unwind per frame.
            ImplAttributes = MethodImplAttributes.NoInlining | MethodImplAttributes.AggressiveOptimization,
        };
        method.Parameters.Add(new ParameterDefinition("chain", ParameterAttributes.None, runtime.ChainByRef));
        var il = method.Body.GetILProcessor();
        var variant = declaration.Variant;
        bool hasLines = variant.DebugInformation.HasSequencePoints;
        if (hasLines)
            BodyEditing.NumberOffsets(variant.Body);

        var resume = il.Create(OpCodes.Ldarg_0);
        var branches = new Instruction[resumedAwaits.Keys.Max()];
        Array.Fill(branches, resume);
        var rethrows = new List<Instruction>();
        foreach (var (state, call) in resumedAwaits.OrderBy(pair => pair.Key))
        {
            var start = il.Create(OpCodes.Ldarg_1);
            branches[state - 1] = start;
            rethrows.AddRange([start, il.Create(OpCodes.Ldc_I4, state), il.Create(OpCodes.Call, runtime.ThrowIfFaultedAt), il.Create(OpCodes.Ret)]);
            if (hasLines && Diagnostics.StatementAt(variant, call) is { } line)
                method.DebugInformation.SequencePoints.Add(BodyEditing.CopySequencePoint(line, start));
        }

        il.Emit(OpCodes.Ldarg_0);
        il.Emit(OpCodes.Ldfld, runtime.StateAndFlags);
        il.Emit(OpCodes.Ldc_I4, RuntimeNames.FlagBits);
        il.Emit(OpCodes.Shr);
        il.Emit(OpCodes.Ldc_I4_1);
        il.Emit(OpCodes.Sub);
        il.Emit(OpCodes.Switch, branches);
        il.Append(resume);
        il.Emit(OpCodes.Ldarg_1);
        il.Emit(OpCodes.Callvirt, runtime.ContinuationResume);
        il.Emit(OpCodes.Ret);
        foreach (var instruction in rethrows)
            il.Append(instruction);
        method.Body.OptimizeMacros();
        type.Methods.Add(method);
    }
}
