using System.Diagnostics.Metrics;

namespace Soak.Service;

// Counts the suspensions and resumptions Async2's meter reports, so the driver can tell that the
// Async2 build really ran rewritten code that suspended (and the classic build none). A listener
// by the meter's name, as any metrics collector would attach; it costs a few nanoseconds a count.
public sealed class Async2Counters : IDisposable
{
    private readonly MeterListener listener = new();
    private long suspensions;
    private long resumptions;

    public Async2Counters()
    {
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == "Async2" && instrument.Name is "async2.suspensions" or "async2.resumptions")
                l.EnableMeasurementEvents(instrument);
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, _, _) =>
        {
            if (instrument.Name == "async2.suspensions")
                Interlocked.Add(ref suspensions, value);
            else
                Interlocked.Add(ref resumptions, value);
        });
        listener.Start();
    }

    public long Suspensions => Interlocked.Read(ref suspensions);
    public long Resumptions => Interlocked.Read(ref resumptions);

    public void Dispose() => listener.Dispose();
}
