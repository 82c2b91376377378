// Telemetry: counts of what the runtime library does, for dotnet-counters, OpenTelemetry and
// dotnet-trace, free when nobody listens.
//
// A System.Diagnostics.Metrics meter ("Async2") and an EventSource ("Async2") report chain
// suspensions and resumptions. The hot path pays one test per chain suspension and per dispatch
// (a static field, Instrument.Enabled, EventSource.IsEnabled: field reads); everything else, the
// method names included, is computed only when a listener is attached.
//
// The meter and the event source are created on the thread pool by a chain suspension or dispatch
// a second or more after the process's first (one in 32 reads the clock): the first meter or event source
// of a process costs 10 to 15 ms (the diagnostics infrastructure starting, on a thread of its own
// but on the same cores), more than a console program's whole first await (classic: 7 to 10 ms),
// which would otherwise wait for it; a program that suspends only in its first second never pays it.
// What happens before they exist, and before a listener attaches, is not counted; the gauge of
// suspended chains counts those suspended since then.
// Both are registered process-wide (the meter in System.Diagnostics.DiagnosticSource's list, the
// event source with the runtime's providers), so a copy of this library loaded into a collectible
// AssemblyLoadContext (a plugin's) disposes them when that context unloads: they would otherwise
// keep it, and the plugin, loaded for good.
//
// Keep in sync: ChainRoot.cs and BuilderRoot.cs (where suspensions and dispatches are reported),
// README "Metrics and events", tests/Async2.Tests/Fixtures/Telemetry.cs.
using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Diagnostics.Tracing;
using System.Runtime.CompilerServices;
using System.Runtime.Loader;

namespace Async2.Runtime;

internal static class Telemetry
{
    /// <summary>Null until <see cref="Instruments"/> are created; never null again after that.</summary>
    private static Instruments? s_instruments;
    private static long s_suspendedChains;

    /// <summary>How long after the process's first test the instruments' creation is queued.</summary>
    private const long CreationDelayMilliseconds = 1000;

    /// <summary>
    /// Zero before the first test; then the <see cref="Environment.TickCount64"/> from which a test
    /// queues the instruments' creation; <see cref="long.MaxValue"/> once one has.
    /// </summary>
    private static long s_creationDue;

    /// <summary>
    /// Tests left until one reads the clock: one in <see cref="TestsPerClockRead"/> does, since
    /// where the clock is a system call (virtual machines) a read costs 40 to 100 ns, as much as
    /// a suspension. Decremented without interlocking: a lost decrement only defers the next read.
    /// </summary>
    private static int s_testsUntilClockRead;

    private const int TestsPerClockRead = 32;

    /// <summary>
    /// Whether anybody listens; the one test on the hot path. Collectors enable a meter's
    /// instruments together (by the meter's name), so async2.suspensions stands for all of them:
    /// testing each would cost about 1.5 ns per suspension more (bench "suspend"). Until the
    /// instruments exist it answers false, and the first test that reads the clock a second or
    /// more after the first test queues their creation.
    /// </summary>
    internal static bool IsOn
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => s_instruments is { } instruments
            ? instruments.Suspensions.Enabled || instruments.Events.IsEnabled()
            : QueueCreationWhenDue();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool QueueCreationWhenDue()
    {
        if (--s_testsUntilClockRead > 0)
            return false;
        s_testsUntilClockRead = TestsPerClockRead;
        long now = Environment.TickCount64;
        long due = Volatile.Read(ref s_creationDue);
        if (due == 0)
            Interlocked.CompareExchange(ref s_creationDue, now + CreationDelayMilliseconds, 0);
        else if (now >= due && due != long.MaxValue && Interlocked.Exchange(ref s_creationDue, long.MaxValue) != long.MaxValue)
        {
            if (AssemblyLoadContext.GetLoadContext(typeof(Telemetry).Assembly) is { IsCollectible: true } context)
                context.Unloading += static _ => DisposeOnUnloading();
            ThreadPool.UnsafeQueueUserWorkItem(static _ => CreateInstruments(), null);
        }
        return false;
    }

    private static int s_unloading;

    private static void CreateInstruments()
    {
        var instruments = new Instruments();
        Interlocked.Exchange(ref s_instruments, instruments);
        if (Volatile.Read(ref s_unloading) != 0)
            instruments.Dispose();
    }

    /// <summary>
    /// Either this or <see cref="CreateInstruments"/>, whichever runs last, finds both the flag and
    /// the instruments (each writes with a full fence before it reads).
    /// </summary>
    private static void DisposeOnUnloading()
    {
        Interlocked.Exchange(ref s_unloading, 1);
        Volatile.Read(ref s_instruments)?.Dispose();
    }

    private sealed class Instruments
    {
        internal readonly Counter<long> Suspensions;
        internal readonly Counter<long> Resumptions;
        internal readonly Counter<long> FramesSuspended;
        internal readonly Histogram<double> DispatchTime;
        internal readonly Async2EventSource Events = Async2EventSource.Log;

        private readonly Meter _meter;

        /// <summary>Unregisters the meter and the event source; both may be disposed twice.</summary>
        internal void Dispose()
        {
            _meter.Dispose();
            Events.Dispose();
        }

        internal Instruments()
        {
            var meter = _meter = new Meter("Async2", typeof(Telemetry).Assembly.GetName().Version?.ToString(3));
            Suspensions = meter.CreateCounter<long>("async2.suspensions", "{suspension}",
                "Chains that suspended: their innermost frame awaited something not complete.");
            Resumptions = meter.CreateCounter<long>("async2.resumptions", "{resumption}",
                "Chains resumed by the dispatcher when what they awaited completed.");
            FramesSuspended = meter.CreateCounter<long>("async2.frames.suspended", "{frame}",
                "Frames that left their state in a continuation (allocated, or reused when a resumed frame suspends again).");
            DispatchTime = meter.CreateHistogram<double>("async2.dispatch.duration", "ms",
                "Time the dispatcher ran a resumed chain, until it completed or suspended again.");
            meter.CreateObservableUpDownCounter("async2.chains.suspended", () => Volatile.Read(ref s_suspendedChains), "{chain}",
                "Chains suspended now (counted from when a listener attached).");
        }
    }

    /// <summary>A chain waits for a notifier; <paramref name="head"/>..<paramref name="tail"/> are the frames it just suspended.</summary>
    internal static void ChainSuspended(Continuation head, Continuation? tail)
    {
        int frames = 1;
        for (var frame = head; frame != tail && frame.Next is { } next; frame = next)
            frames++;
        var instruments = s_instruments!;
        instruments.Suspensions.Add(1);
        instruments.FramesSuspended.Add(frames);
        Interlocked.Increment(ref s_suspendedChains);
        if (instruments.Events.IsEnabled())
            instruments.Events.Suspension(MethodName(head), frames);
    }

    internal static long DispatchStarted(Continuation head)
    {
        var instruments = s_instruments!;
        instruments.Resumptions.Add(1);
        CountResumedChain();
        if (instruments.Events.IsEnabled())
            instruments.Events.Resumption(MethodName(head));
        return Stopwatch.GetTimestamp();
    }

    /// <summary>
    /// The gauge stops at zero: a chain that suspended before the instruments existed, or before
    /// a listener attached, was not counted up. A compare-exchange, so that two resumptions racing
    /// over the last counted chain do not take it below zero.
    /// </summary>
    private static void CountResumedChain()
    {
        long suspended = Volatile.Read(ref s_suspendedChains);
        while (suspended > 0)
        {
            long seen = Interlocked.CompareExchange(ref s_suspendedChains, suspended - 1, suspended);
            if (seen == suspended)
                return;
            suspended = seen;
        }
    }

    internal static void DispatchEnded(long started)
    {
        var dispatchTime = s_instruments!.DispatchTime;
        if (dispatchTime.Enabled)
            dispatchTime.Record(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
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
