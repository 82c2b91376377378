using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Adds the stack-depth suspension point to a recursive variant (only recursion builds a chain of
/// unbounded depth; other methods go without the check) that awaits other variants. It takes the normalized-await shape, so
/// liveness, layout and suspension treat it like any await:
/// <code>
///     CHECK:    ldarg chain; call StackGuard.MustSuspend(ref chain); brfalse CONTINUE
///     CONTINUE: the body's first instruction
/// </code>
/// It sits before every region and runs only on a fresh call: resumption dispatches past it.
/// Instance methods of structs go without: their <c>this</c> is a managed pointer, which may be
/// read before the first await but cannot be kept in a continuation.
/// </summary>
internal static class StackGuardEmitter
{
    public static IReadOnlyList<NormalizedAwait> Add(VariantDeclaration declaration, IReadOnlyList<NormalizedAwait> awaits, RuntimeReferences runtime)
    {
        var variant = declaration.Variant;
        if (!awaits.Any(a => a.Site.Kind == AwaitKind.DirectCall) || declaration.SelfIsManagedPointer)
            return awaits;
        var body = variant.Body;
        var first = body.Instructions[0];
        var check = Instruction.Create(OpCodes.Brfalse, first);
        BodyEditing.InsertAtEntry(body,
        [
            Instruction.Create(OpCodes.Ldarg, variant.Parameters[^2]),
            Instruction.Create(OpCodes.Call, runtime.StackGuardMustSuspend),
            check,
        ]);
        var module = variant.Module;
        var site = new AwaitSite(AwaitKind.StackGuard, check, null, null, module.TypeSystem.Void, module.TypeSystem.Void, false, []);
        return [.. awaits, new NormalizedAwait(awaits.Count + 1, site, check, first, null)];
    }
}
