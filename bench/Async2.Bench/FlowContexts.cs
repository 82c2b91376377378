#if ASYNC2_FLOWING
// The "Async2" variant: the whole worker runs in Async2's flowing context mode, seed 002's async2
// semantics (a callee's AsyncLocal and SynchronizationContext changes stay visible to its caller).
// Without the define the rewritten worker is "Async2Capture", Async2's default mode.
[assembly: Async2.Runtime.FlowContexts]

namespace Async2.Runtime
{
    /// <summary>
    /// The rewriter matches this attribute by its full name, so the worker declares it instead of
    /// referencing Async2.Runtime (which the runtime-async build run under DOTNET_RuntimeAsync=1
    /// does not need).
    /// </summary>
    [AttributeUsage(AttributeTargets.Assembly)]
    internal sealed class FlowContextsAttribute : Attribute;
}
#endif
