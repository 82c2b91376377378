// Listens to Async2's meter and event source in-process while a loop suspends its chain ten times.
using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Diagnostics.Tracing;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

sealed class Async2Events : EventListener
{
    public readonly List<string> Suspended = new();
    public int Resumed;

    protected override void OnEventSourceCreated(EventSource source)
    {
        if (source.Name == "Async2")
            EnableEvents(source, EventLevel.Informational);
    }

    protected override void OnEventWritten(EventWrittenEventArgs e)
    {
        lock (this)
        {
            if (e.EventName == "Suspension")
                Suspended.Add($"{e.Payload![0]} ({e.Payload[1]} frames)");
            else if (e.EventName == "Resumption")
                Resumed++;
        }
    }
}

static class Program
{
    static async Task<int> Main()
    {
        var totals = new Dictionary<string, long>();
        using var meter = new MeterListener();
        meter.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == "Async2")
                listener.EnableMeasurementEvents(instrument);
        };
        meter.SetMeasurementEventCallback<long>((instrument, value, _, _) =>
        {
            lock (totals)
                totals[instrument.Name] = totals.GetValueOrDefault(instrument.Name) + value;
        });
        meter.Start();
        using var events = new Async2Events();

        await Work(10);
        await Task.Delay(50); // the last resumption's events are written on the thread that resumed

        lock (totals)
            foreach (var (name, total) in totals.OrderBy(t => t.Key, StringComparer.Ordinal))
                Console.WriteLine($"{name} = {total}");
        lock (events)
        {
            Console.WriteLine($"events: {events.Suspended.Count} suspensions, {events.Resumed} resumptions");
            foreach (var group in events.Suspended.GroupBy(s => s))
                Console.WriteLine($"  {group.Key} x{group.Count()}");
        }
        return 0;
    }

    static async Task Work(int steps)
    {
        for (int i = 0; i < steps; i++)
            await Step();
    }

    static async Task Step() => await Task.Yield();
}
