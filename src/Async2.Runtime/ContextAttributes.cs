// The attributes that choose how rewritten methods treat the SynchronizationContext and the
// ExecutionContext. The rewriter matches them by full name (Async2.Rewriter/Analysis/ScopedAttributes.cs),
// so a program may reference these or declare its own with the same names; nearest scope wins
// (method, declaring types from the innermost out, module, assembly).
namespace Async2.Runtime
{
    /// <summary>
    /// Flowing context mode (seed 002's async2 semantics): an async method under it does not put
    /// back the AsyncLocal values and SynchronizationContext it changed when it returns, so a caller
    /// awaiting it directly sees them, also after suspensions. Task thunks, the entry from code that
    /// is not rewritten, still save and restore both. <c>[FlowContexts(false)]</c> opts a nearer
    /// scope back into the default, compatible mode, where changes are undone as in classic async.
    /// </summary>
    [AttributeUsage(AttributeTargets.Assembly | AttributeTargets.Module | AttributeTargets.Class | AttributeTargets.Struct | AttributeTargets.Method)]
    public sealed class FlowContextsAttribute(bool flow = true) : Attribute
    {
        public bool Flow { get; } = flow;
    }
}

namespace System.Runtime.CompilerServices
{
    /// <summary>
    /// Seed 002's attribute: with <c>false</c>, every await in its scope that names no ConfigureAwait
    /// of its own behaves as <c>ConfigureAwait(false)</c> (awaits of Tasks, ValueTasks and other
    /// rewritten methods); an explicit ConfigureAwait call still wins.
    /// </summary>
    [AttributeUsage(AttributeTargets.Assembly | AttributeTargets.Module | AttributeTargets.Class | AttributeTargets.Struct | AttributeTargets.Method)]
    public sealed class ConfigureAwaitAttribute(bool continueOnCapturedContext) : Attribute
    {
        public bool ContinueOnCapturedContext { get; } = continueOnCapturedContext;
    }
}
