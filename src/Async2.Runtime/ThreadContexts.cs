// ThreadContexts: a thread's ExecutionContext and SynchronizationContext, read from its Thread
// object.
//
// Each public read (ExecutionContext.Capture, SynchronizationContext.Current, IsFlowSuppressed,
// Environment.CurrentManagedThreadId) finds the current thread in thread-local storage first, a
// call into the runtime on Linux; a suspension and its resumption made about six. A dispatch
// runs on one thread, so its root reads Thread.CurrentThread once and hands it down
// (AsyncChain.Thread, IDispatchEnds.Thread); the reads through it are field loads, as CoreLib's
// own async code makes them. Given no thread (a chain's synchronous first run, which reads
// nothing until it suspends), each read is the public one.
//
// Keep in sync with CoreLib's Thread._executionContext and _synchronizationContext and
// ExecutionContext.m_isFlowSuppressed and Default (the same names in CoreCLR, NativeAOT and
// Mono, .NET 10 and 11), and with what ExecutionContext.Capture and SynchronizationContext.Current
// make of them. A runtime without those fields, or where they do not give what the public reads
// give, gets the public reads everywhere (ReadableDefault, checked once).
using System.Runtime.CompilerServices;

namespace Async2.Runtime;

internal static class ThreadContexts
{
    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_executionContext")]
    private static extern ref ExecutionContext? ExecutionContextField(Thread thread);

    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_synchronizationContext")]
    private static extern ref SynchronizationContext? SynchronizationContextField(Thread thread);

    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "m_isFlowSuppressed")]
    private static extern ref bool FlowSuppressedField(ExecutionContext context);

    [UnsafeAccessor(UnsafeAccessorKind.StaticField, Name = "Default")]
    private static extern ref ExecutionContext DefaultField(ExecutionContext? declaringType);

    /// <summary>The context a thread that never had one is in; null where the fields are not readable.</summary>
    private static readonly ExecutionContext? s_default = ReadableDefault();

    /// <summary>
    /// Reads the fields once, on this thread, against the public reads: where an accessor finds no
    /// such field it throws, and where a runtime keeps them otherwise the values differ.
    /// </summary>
    private static ExecutionContext? ReadableDefault()
    {
        try
        {
            var thread = Thread.CurrentThread;
            var defaultContext = DefaultField(null);
            var field = ExecutionContextField(thread);
            bool suppressed = field is not null && FlowSuppressedField(field);
            return defaultContext is not null
                && suppressed == ExecutionContext.IsFlowSuppressed()
                && (suppressed || (field ?? defaultContext) == ExecutionContext.Capture())
                && SynchronizationContextField(thread) == SynchronizationContext.Current
                ? defaultContext
                : null;
        }
        catch (Exception)
        {
            return null;
        }
    }

    /// <summary>What <see cref="ExecutionContext.Capture"/> gives on <paramref name="thread"/>, the current thread.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static ExecutionContext? Capture(Thread? thread)
    {
        if (thread is null || s_default is null)
            return ExecutionContext.Capture();
        var context = ExecutionContextField(thread);
        return context is null ? s_default : FlowSuppressedField(context) ? null : context;
    }

    /// <summary>What <see cref="ExecutionContext.IsFlowSuppressed"/> gives on <paramref name="thread"/>, the current thread.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool IsFlowSuppressed(Thread? thread) =>
        thread is null || s_default is null
            ? ExecutionContext.IsFlowSuppressed()
            : ExecutionContextField(thread) is { } context && FlowSuppressedField(context);

    /// <summary>What <see cref="SynchronizationContext.Current"/> gives on <paramref name="thread"/>, the current thread.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static SynchronizationContext? SynchronizationContextOf(Thread? thread) =>
        thread is null || s_default is null ? SynchronizationContext.Current : SynchronizationContextField(thread);

    /// <summary>What <see cref="Environment.CurrentManagedThreadId"/> gives on <paramref name="thread"/>, the current thread.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static int ManagedThreadId(Thread? thread) => thread?.ManagedThreadId ?? Environment.CurrentManagedThreadId;
}
