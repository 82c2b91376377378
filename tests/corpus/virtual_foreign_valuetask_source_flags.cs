// A ValueTask over an IValueTaskSource, returned by a non-async override of a virtual, abstract or
// interface method that has an async override too (so a rewritten caller awaits it through an
// entry, and a frame stands in for the override), awaited where no SynchronizationContext or
// TaskScheduler is current. Classic async tells the source UseSchedulingContext unless the await
// says ConfigureAwait(false); Async2's stand-in told it None whenever there was no context to
// capture, and a source that runs the continuation inline without the flag (and queues it with
// it) resumed the caller on the completing thread where classic resumes it on the thread pool.
// The source completes only once registered, from a thread of its own, so each run is the same.
using System;
using System.Reflection;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

sealed class FlagSource : IValueTaskSource<int>
{
    private readonly ManualResetEventSlim _registered = new();
    private Action<object?>? _continuation;
    private object? _state;
    private bool _queue;
    private int _result = -1;

    public ValueTaskSourceOnCompletedFlags Flags { get; private set; }

    public ValueTask<int> Start(int result)
    {
        new Thread(() =>
        {
            _registered.Wait();
            _result = result;
            if (_queue)
                ThreadPool.QueueUserWorkItem(_ => _continuation!(_state));
            else
                _continuation!(_state);
        }) { Name = "completer", IsBackground = true }.Start();
        return new ValueTask<int>(this, 0);
    }

    public ValueTaskSourceStatus GetStatus(short token) => _result < 0 ? ValueTaskSourceStatus.Pending : ValueTaskSourceStatus.Succeeded;
    public int GetResult(short token) => _result;

    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
    {
        Flags = flags;
        _continuation = continuation;
        _state = state;
        _queue = (flags & ValueTaskSourceOnCompletedFlags.UseSchedulingContext) != 0;
        _registered.Set();
    }
}

abstract class Reader
{
    public readonly FlagSource Source = new();
    public abstract ValueTask<int> ReadAsync(int value);
}

sealed class AsyncReader : Reader
{
    public override async ValueTask<int> ReadAsync(int value) { await Task.Yield(); return value; }
}

sealed class SourceReader : Reader
{
    public override ValueTask<int> ReadAsync(int value) => Source.Start(value);
}

interface IReader { ValueTask<int> ReadAsync(int value); }

sealed class AsyncIReader : IReader
{
    public async ValueTask<int> ReadAsync(int value) { await Task.Yield(); return value; }
}

sealed class SourceIReader : IReader
{
    public readonly FlagSource Source = new();
    public ValueTask<int> ReadAsync(int value) => Source.Start(value);
}

class ReaderProxy : DispatchProxy
{
    public readonly FlagSource Source = new();
    protected override object? Invoke(MethodInfo? method, object?[]? args) => Source.Start((int)args![0]!);
}

static class Program
{
    static string Where() => Thread.CurrentThread.Name == "completer" ? "the completing thread" : "another thread";

    static async Task<string> Virtual(Reader reader)
    {
        int value = await reader.ReadAsync(1);
        return $"virtual: {value} on {Where()}, {reader.Source.Flags}";
    }

    static async Task<string> VirtualConfigured(Reader reader)
    {
        int value = await reader.ReadAsync(2).ConfigureAwait(false);
        return $"virtual, ConfigureAwait(false): {value} on {Where()}, {reader.Source.Flags}";
    }

    static async Task<string> Interface(IReader reader, FlagSource source)
    {
        int value = await reader.ReadAsync(3);
        return $"interface: {value} on {Where()}, {source.Flags}";
    }

    static async Task<string> InterfaceConfigured(IReader reader, FlagSource source)
    {
        int value = await reader.ReadAsync(4).ConfigureAwait(false);
        return $"interface, ConfigureAwait(false): {value} on {Where()}, {source.Flags}";
    }

    // Two frames above the stand-in: only the one awaiting the entry decides how the source is asked.
    static async Task<string> Outer(Reader reader) => "outer of " + await Virtual(reader);

    static async Task Main()
    {
        Console.WriteLine(await new AsyncReader().ReadAsync(0));
        Console.WriteLine(await Virtual(new SourceReader()));
        Console.WriteLine(await VirtualConfigured(new SourceReader()));
        Console.WriteLine(await new AsyncIReader().ReadAsync(3));
        var iReader = new SourceIReader();
        Console.WriteLine(await Interface(iReader, iReader.Source));
        iReader = new SourceIReader();
        Console.WriteLine(await InterfaceConfigured(iReader, iReader.Source));
        var proxy = DispatchProxy.Create<IReader, ReaderProxy>();
        Console.WriteLine(await Interface(proxy, ((ReaderProxy)(object)proxy).Source));
        Console.WriteLine(await Outer(new SourceReader()));
    }
}
