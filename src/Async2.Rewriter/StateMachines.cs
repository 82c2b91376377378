using Mono.Cecil;

namespace Async2.Rewriter;

/// <summary>
/// Which methods of a module are state machines, by the [AsyncStateMachine] or
/// [AsyncIteratorStateMachine] on them: the compiler's classic ones, which a rewrite leaves as they
/// are, and the Task thunks of an earlier rewrite, whose attribute names a continuation class
/// (Rewrite/VariantMap.cs names them). <c>async2 rewrite</c>'s summary and <c>async2 inspect</c>
/// list both from here, so the two agree on what was left classic.
/// </summary>
public static class StateMachines
{
    /// <summary>The methods the compiler built as classic state machines, as <c>Type::Method</c>.</summary>
    public static IReadOnlyList<string> Classic(ModuleDefinition module) =>
        [.. module.GetTypes().SelectMany(type => type.Methods)
            .Where(method => StateMachineOf(method) is { } stateMachine && !IsContinuationClass(stateMachine))
            .Select(Diagnostics.Describe)];

    /// <summary>Whether <paramref name="method"/> is the Task thunk of a method Async2 rewrote.</summary>
    public static bool IsRewrittenThunk(MethodDefinition method) => StateMachineOf(method) is { } stateMachine && IsContinuationClass(stateMachine);

    private static TypeReference? StateMachineOf(MethodDefinition method) =>
        method.CustomAttributes
            .FirstOrDefault(a => a.AttributeType.Name is "AsyncStateMachineAttribute" or "AsyncIteratorStateMachineAttribute")
            ?.ConstructorArguments is [{ Value: TypeReference stateMachine }] ? stateMachine : null;

    private static bool IsContinuationClass(TypeReference type) => type.Name.Contains(RuntimeNames.ContinuationClassMarker, StringComparison.Ordinal);
}
