namespace Async2.Rewriter;

/// <summary>
/// Names of the Async2.Runtime members the generated code calls. Keep in sync with
/// src/Async2.Runtime (the runtime files say which of their members are looked up here).
/// </summary>
internal static class RuntimeNames
{
    public const string Namespace = "Async2.Runtime";

    /// <summary>The runtime library's assembly name, which every rewritten assembly references.</summary>
    public const string RuntimeAssembly = "Async2.Runtime";
    public const string Continuation = "Continuation";
    public const string GenericContinuation = "Continuation`1";
    public const string AsyncChain = "AsyncChain";
    public const string AwaitBridge = "AwaitBridge";
    public const string TaskThunk = "TaskThunk";
    public const string ThunkScope = "ThunkScope";
    public const string OverrideDispatch = "OverrideDispatch";
    public const string StackGuard = "StackGuard";
    public const string SuspensionPointsAttribute = "SuspensionPointsAttribute";
    public const string CrossAssembly = "CrossAssembly";

    /// <summary>In the name of every continuation class, after the method's name: <c>&lt;M&gt;d__Async2_N</c>.</summary>
    public const string ContinuationClassMarker = "d__Async2_";

    /// <summary>Continuation.FlagBits: StateAndFlags holds the state above this many bits of ContinuationFlags.</summary>
    public const int FlagBits = 3;

    /// <summary>ContinuationFlags.HandlesExceptions: the frame suspended inside a protected region.</summary>
    public const int HandlesExceptionsFlag = 1;

    /// <summary>ContinuationFlags.FlowsContextsToCaller: the frame's method runs in flowing context mode.</summary>
    public const int FlowsContextsToCallerFlag = 2;

    /// <summary>ContinuationFlags.HasContextScope: the frame's method brackets its body with a context scope.</summary>
    public const int HasContextScopeFlag = 4;

    public const string AsyncHelpers = "System.Runtime.CompilerServices.AsyncHelpers";

    /// <summary>MethodImplAttributes.Async: Cecil has no enum member for it, the raw bit survives.</summary>
    public const int AsyncImplFlag = 0x2000;
}
