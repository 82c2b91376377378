using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// The body of a <c>catch (object)</c> the rewriter adds only to rethrow what it catches, once the
/// frames inside have run their finally and fault blocks (AwaitNormalizer's guard of a call under an
/// exception filter, ContextScopeEmitter's scope). Rethrown inside the handler, the exception keeps
/// its stack trace as it is, but its next dispatch runs above the one still running, so a synchronous
/// exception through many such frames takes stack for each; where the stack runs low, the handler
/// leaves and the frame throws the exception again (Async2.Runtime's StackGuard.RethrowsOutsideHandler).
/// <code>
/// handler:      stloc thrown; ldloc thrown; call RethrowsOutsideHandler; brtrue LEAVE; rethrow; LEAVE: leave AFTER
/// AFTER:        ldloc thrown; call ThrowAgain
/// </code>
/// </summary>
internal static class RethrowingHandler
{
    /// <summary>
    /// The handler's instructions (its first is the handler's start) and those to place right after
    /// the handler, outside it, where control never falls through from before.
    /// </summary>
    public static (List<Instruction> Handler, List<Instruction> AfterHandler) Create(MethodBody body, RuntimeReferences runtime)
    {
        var thrown = new VariableDefinition(body.Method.Module.TypeSystem.Object);
        body.Variables.Add(thrown);
        var throwAgain = Instruction.Create(OpCodes.Ldloc, thrown);
        var leave = Instruction.Create(OpCodes.Leave, throwAgain);
        List<Instruction> handler =
        [
            Instruction.Create(OpCodes.Stloc, thrown),
            Instruction.Create(OpCodes.Ldloc, thrown),
            Instruction.Create(OpCodes.Call, runtime.StackGuardRethrowsOutsideHandler),
            Instruction.Create(OpCodes.Brtrue, leave),
            Instruction.Create(OpCodes.Rethrow),
            leave,
        ];
        return (handler, [throwAgain, Instruction.Create(OpCodes.Call, runtime.StackGuardThrowAgain)]);
    }
}
