// Listens to Async2's meter and event source in-process while a loop suspends its chain ten times.
// Async2 creates them on the thread pool at a suspension a second or more after the process's
// first, so a warm-up suspends until they exist before the program counts.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Diagnostics.Tracing;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

sealed class Async2Events : EventListener
{
    public readonly List<string> Suspended = new();
    public int Resumed;
    public readonly TaskCompletionSource<int> CreatedOnThread = new(TaskCreationOptions.RunContinuationsAsynchronously);

    protected override void OnEventSourceCreated(EventSource source)
    {
        if (source.Name != "Async2")
            return;
        EnableEvents(source, EventLevel.Informational);
        CreatedOnThread.TrySetResult(Environment.CurrentManagedThreadId);
    }

    public void Clear()
    {
        lock (this)
        {
            Suspended.Clear();
            Resumed = 0;
        }
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
        int mainThread = Environment.CurrentManagedThreadId;
        var totals = new Dictionary<string, long>();
        var meterCreatedOnThread = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        using var meter = new MeterListener();
        meter.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name != "Async2")
                return;
            listener.EnableMeasurementEvents(instrument);
            meterCreatedOnThread.TrySetResult(Environment.CurrentManagedThreadId);
        };
        meter.SetMeasurementEventCallback<long>((instrument, value, _, _) =>
        {
            lock (totals)
                totals[instrument.Name] = totals.GetValueOrDefault(instrument.Name) + value;
        });
        meter.Start();
        using var events = new Async2Events();

        await WarmUp();
        Thread.Sleep(300);
        Console.WriteLine($"meter or event source created after the first suspension: {meterCreatedOnThread.Task.IsCompleted || events.CreatedOnThread.Task.IsCompleted}");
        var warmingUp = Stopwatch.StartNew();
        while (!meterCreatedOnThread.Task.IsCompleted || !events.CreatedOnThread.Task.IsCompleted)
        {
            if (warmingUp.Elapsed > TimeSpan.FromSeconds(30))
                throw new TimeoutException("Async2's meter or event source was not created");
            await WarmUp();
            // Blocking, not awaiting: Main's own suspensions would be counted once the event source exists.
            Thread.Sleep(20);
        }
        int meterThread = meterCreatedOnThread.Task.Result, eventsThread = events.CreatedOnThread.Task.Result;
        Console.WriteLine($"meter and event source created on the first suspension's thread: {meterThread == mainThread || eventsThread == mainThread}");
        // The first instrument is published before the others, and Async2 reports once all exist.
        var waited = Stopwatch.StartNew();
        while (!Counted(totals, "async2.suspensions"))
        {
            if (waited.Elapsed > TimeSpan.FromSeconds(30))
                throw new TimeoutException("Async2 does not report suspensions");
            await WarmUp();
        }
        lock (totals)
            totals.Clear();
        events.Clear();

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

    static bool Counted(Dictionary<string, long> totals, string instrument)
    {
        lock (totals)
            return totals.ContainsKey(instrument);
    }

    static async Task WarmUp() => await Task.Yield();

    static async Task Work(int steps)
    {
        for (int i = 0; i < steps; i++)
            await Step();
    }

    static async Task Step() => await Task.Yield();
}
