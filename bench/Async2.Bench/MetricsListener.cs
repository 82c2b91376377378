using System.Diagnostics.Metrics;

namespace Async2.Bench;

/// <summary>
/// For <c>--listen</c>: what a metrics collector (dotnet-counters, OpenTelemetry) costs a rewritten
/// build while it listens to Async2's meter. Every measurement of every Async2 instrument is
/// taken and summed, as an exporter aggregating them would.
/// </summary>
internal static class MetricsListener
{
    private static long s_total;

    public static MeterListener Attach()
    {
        var listener = new MeterListener
        {
            InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == "Async2")
                    listener.EnableMeasurementEvents(instrument);
            },
        };
        listener.SetMeasurementEventCallback<long>((_, value, _, _) => Interlocked.Add(ref s_total, value));
        listener.SetMeasurementEventCallback<double>((_, value, _, _) => Interlocked.Add(ref s_total, (long)value));
        listener.Start();
        return listener;
    }
}
