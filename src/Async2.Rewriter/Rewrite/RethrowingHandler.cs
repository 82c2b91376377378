using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// The body of a <c>catch (object)</c> the rewriter adds only to rethrow what it catches, once the
/// frames inside have run their finally and fault blocks (AwaitNormalizer's guard of a call under an
/// exception filter, ContextScopeEmitter's scope), and the pieces <see cref="HandlerThrowEmitter"/>
/// puts in a program's own handlers. Rethrown inside the handler, the exception keeps its stack trace
/// as it is, but its next dispatch runs above the one still running, so a synchronous exception
/// through many such frames takes stack for each; where the stack runs low, the handler leaves and
/// the frame throws the exception again (Async2.Runtime's StackGuard.RethrowsOutsideHandler).
/// <code>
/// handler:      stloc thrown; ldloc thrown; call RethrowsOutsideHandler; brtrue LEAVE; rethrow; LEAVE: leave AFTER
/// AFTER:        ldloc thrown; call ThrowAgain; ldloc thrown; throw
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
        var thrown = NewObjectLocal(body);
        var afterHandler = ThrowAgain(thrown, runtime);
        return ([Instruction.Create(OpCodes.Stloc, thrown), .. RethrowOrLeave(thrown, afterHandler[0], runtime)], afterHandler);
    }

    /// <summary>Rethrows <paramref name="thrown"/>, the exception the handler caught, or with the stack low leaves for <paramref name="throwAgain"/>.</summary>
    public static List<Instruction> RethrowOrLeave(VariableDefinition thrown, Instruction throwAgain, RuntimeReferences runtime) =>
        ThrowHereOrLeave(thrown, throwAgain, [Instruction.Create(OpCodes.Rethrow)], runtime);

    /// <summary>For a <c>throw</c> in a handler: stores the exception on the stack in <paramref name="thrown"/> and throws it, or with the stack low leaves for <paramref name="throwAgain"/>.</summary>
    public static List<Instruction> ThrowOrLeave(VariableDefinition thrown, Instruction throwAgain, RuntimeReferences runtime) =>
    [
        Instruction.Create(OpCodes.Stloc, thrown),
        .. ThrowHereOrLeave(thrown, throwAgain, [Instruction.Create(OpCodes.Ldloc, thrown), Instruction.Create(OpCodes.Throw)], runtime),
    ];

    private static List<Instruction> ThrowHereOrLeave(VariableDefinition thrown, Instruction throwAgain, Instruction[] throwHere, RuntimeReferences runtime)
    {
        var leave = Instruction.Create(OpCodes.Leave, throwAgain);
        return
        [
            Instruction.Create(OpCodes.Ldloc, thrown),
            Instruction.Create(OpCodes.Call, runtime.StackGuardRethrowsOutsideHandler),
            Instruction.Create(OpCodes.Brtrue, leave),
            .. throwHere,
            leave,
        ];
    }

    /// <summary>
    /// Outside the handler: throws <paramref name="thrown"/> again, keeping its stack trace. The
    /// <c>throw</c> after the call, never reached, ends the code for the verifier and the JIT, which
    /// would otherwise see it run on into whatever follows (a handler, when the try is the last
    /// thing in an enclosing region).
    /// </summary>
    public static List<Instruction> ThrowAgain(VariableDefinition thrown, RuntimeReferences runtime) =>
    [
        Instruction.Create(OpCodes.Ldloc, thrown),
        Instruction.Create(OpCodes.Call, runtime.StackGuardThrowAgain),
        Instruction.Create(OpCodes.Ldloc, thrown),
        Instruction.Create(OpCodes.Throw),
    ];

    public static VariableDefinition NewObjectLocal(MethodBody body)
    {
        var local = new VariableDefinition(body.Method.Module.TypeSystem.Object);
        body.Variables.Add(local);
        return local;
    }
}
