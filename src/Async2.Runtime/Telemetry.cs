// Telemetry: counts of what the runtime library does, for dotnet-counters, OpenTelemetry and
// dotnet-trace, free when nobody listens.
//
// A System.Diagnostics.Metrics meter ("Async2") and an EventSource ("Async2") report chain
// suspensions and resumptions. The hot path pays one test per chain suspension and per dispatch
// (Instrument.Enabled, EventSource.IsEnabled: field reads); everything else, the method names
// included, is computed only when a listener is attached. What is counted starts when a listener
// attaches: the gauge of suspended chains counts those suspended since then.
//
// Keep in sync: ChainRoot.cs (where suspensions and dispatches are reported), README "Metrics and events".
using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Diagnostics.Tracing;

namespace Async2.Runtime;

internal static class Telemetry
{
    internal static readonly Meter Meter = new("Async2", typeof(Telemetry).Assembly.GetName().Version?.ToString(3));

    private static readonly Counter<long> s_suspensions = Meter.CreateCounter<long>("async2.suspensions", "{suspension}",
        "Chains that suspended: their innermost frame awaited something not complete.");
    private static readonly Counter<long> s_resumptions = Meter.CreateCounter<long>("async2.resumptions", "{resumption}",
        "Chains resumed by the dispatcher when what they awaited completed.");
    private static readonly Counter<long> s_framesSuspended = Meter.CreateCounter<long>("async2.frames.suspended", "{frame}",
        "Frames that left their state in a continuation (allocated, or reused when a resumed frame suspends again).");
    private static readonly Histogram<double> s_dispatchTime = Meter.CreateHistogram<double>("async2.dispatch.duration", "ms",
        "Time the dispatcher ran a resumed chain, until it completed or suspended again.");
    private static long s_suspendedChains;

    static Telemetry() =>
        Meter.CreateObservableUpDownCounter("async2.chains.suspended", () => Volatile.Read(ref s_suspendedChains), "{chain}",
            "Chains suspended now (counted from when a listener attached).");

    /// <summary>
    /// Whether anybody listens; the one test on the hot path. Collectors enable a meter's
    /// instruments together (by the meter's name), so async2.suspensions stands for all of them:
    /// testing each would cost about a nanosecond per suspension more (bench "suspend").
    /// </summary>
    internal static bool IsOn => s_suspensions.Enabled || Async2EventSource.Log.IsEnabled();

    /// <summary>A chain waits for a notifier; <paramref name="head"/>..<paramref name="tail"/> are the frames it just suspended.</summary>
    internal static void ChainSuspended(Continuation head, Continuation? tail)
    {
        int frames = 1;
        for (var frame = head; frame != tail && frame.Next is { } next; frame = next)
            frames++;
        s_suspensions.Add(1);
        s_framesSuspended.Add(frames);
        Interlocked.Increment(ref s_suspendedChains);
        if (Async2EventSource.Log.IsEnabled())
            Async2EventSource.Log.Suspension(MethodName(head), frames);
    }

    internal static long DispatchStarted(Continuation head)
    {
        s_resumptions.Add(1);
        if (Volatile.Read(ref s_suspendedChains) > 0)
            Interlocked.Decrement(ref s_suspendedChains);
        if (Async2EventSource.Log.IsEnabled())
            Async2EventSource.Log.Resumption(MethodName(head));
        return Stopwatch.GetTimestamp();
    }

    internal static void DispatchEnded(long started)
    {
        if (s_dispatchTime.Enabled)
            s_dispatchTime.Record(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
    }

    /// <summary>
    /// <c>Owner.M</c> for a continuation class <c>Owner+&lt;M&gt;d__Async2_N</c> (read from its name:
    /// no reflection over methods, which trimming may remove); the class name for other frames.
    /// </summary>
    internal static string MethodName(Continuation frame)
    {
        var type = frame.GetType();
        var name = type.Name;
        int open = name.IndexOf('<'), close = name.IndexOf(">d__Async2_", StringComparison.Ordinal);
        if (open != 0 || close < 0)
            return type.FullName ?? name;
        return $"{type.DeclaringType?.FullName}.{name[1..close]}";
    }
}

/// <summary>Suspension and resumption events, for dotnet-trace and EventListener (provider name "Async2").</summary>
[EventSource(Name = "Async2")]
internal sealed class Async2EventSource : EventSource
{
    public static readonly Async2EventSource Log = new();

    /// <summary>A chain suspended; <paramref name="method"/> is its innermost frame's, which awaited something not complete.</summary>
    [Event(1, Level = EventLevel.Informational, Message = "{0} suspended a chain of {1} frame(s)")]
    public void Suspension(string method, int frames) => WriteEvent(1, method, frames);

    /// <summary>A suspended chain is resumed at <paramref name="method"/>.</summary>
    [Event(2, Level = EventLevel.Informational, Message = "{0} resumed")]
    public void Resumption(string method) => WriteEvent(2, method);
}
