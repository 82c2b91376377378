// Compiled into every program in tests/expected: the context attributes, declared by the program
// itself rather than referenced from Async2.Runtime, since the rewriter matches them by full name.
namespace Async2.Runtime
{
    [System.AttributeUsage(System.AttributeTargets.Assembly | System.AttributeTargets.Module | System.AttributeTargets.Class | System.AttributeTargets.Struct | System.AttributeTargets.Method)]
    sealed class FlowContextsAttribute : System.Attribute
    {
        public FlowContextsAttribute(bool flow = true) { }
    }
}

namespace System.Runtime.CompilerServices
{
    /// <summary>Seed 002's definition.</summary>
    [AttributeUsage(AttributeTargets.Assembly | AttributeTargets.Module | AttributeTargets.Class | AttributeTargets.Struct | AttributeTargets.Method)]
    sealed class ConfigureAwaitAttribute : Attribute
    {
        public ConfigureAwaitAttribute(bool continueOnCapturedContext) { ContinueOnCapturedContext = continueOnCapturedContext; }
        public bool ContinueOnCapturedContext { get; }
    }
}
