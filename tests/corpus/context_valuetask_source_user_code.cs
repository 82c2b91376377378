// User code that runs inside ValueTask machinery: an IValueTaskSource whose GetStatus and GetResult
// change an AsyncLocal and the current SynchronizationContext (as a source that installs an ambient
// scope, or leaks one, might). Classic async gives every async method's caller back the
// ExecutionContext and SynchronizationContext it called with, so whatever GetStatus/GetResult
// changed inside `await vt`, `await vt.ConfigureAwait(false)`, `await vt.AsTask()`, vt.IsCompleted
// or vt.GetAwaiter().GetResult() is seen inside the method after that point but never by its caller,
// whether the method completed synchronously (awaited, or called for its Task and read through
// .Result) or suspended until the source completed from the thread pool. Each method is given its
// ValueTask as a parameter or reads it from a field, so its own body calls nothing but ValueTask
// members and awaits. A custom awaiter doing the same is the control case.
using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

sealed class MarkingContext(string name) : SynchronizationContext
{
    public string Name => name;
    public override void Post(SendOrPostCallback d, object? state) => ThreadPool.QueueUserWorkItem(_ => d(state));
}

sealed class Source(bool completeLater) : IValueTaskSource<int>, IValueTaskSource
{
    public static readonly AsyncLocal<string> Ambient = new();
    private ManualResetValueTaskSourceCore<int> core = new() { RunContinuationsAsynchronously = true };
    private readonly bool later = completeLater;

    public ValueTask<int> Start()
    {
        core.Reset();
        if (!later) core.SetResult(42);
        return new ValueTask<int>(this, core.Version);
    }

    public ValueTask StartVoid()
    {
        Start();
        return new ValueTask(this, core.Version);
    }

    public ValueTaskSourceStatus GetStatus(short token)
    {
        Ambient.Value = "set by GetStatus";
        return core.GetStatus(token);
    }

    public int GetResult(short token)
    {
        Ambient.Value = "set by GetResult";
        SynchronizationContext.SetSynchronizationContext(new MarkingContext("from GetResult"));
        return core.GetResult(token);
    }

    void IValueTaskSource.GetResult(short token) => GetResult(token);

    // A source that completes later does so only once a continuation is registered, from the
    // thread pool, so every await of it suspends.
    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
    {
        core.OnCompleted(continuation, state, token, flags);
        if (later) ThreadPool.QueueUserWorkItem(_ => core.SetResult(43));
    }
}

readonly struct MarkingAwaitable(int value)
{
    public Awaiter GetAwaiter() => new(value);
    public readonly struct Awaiter(int value) : INotifyCompletion
    {
        public bool IsCompleted => true;
        public int GetResult()
        {
            Source.Ambient.Value = "set by custom awaiter";
            SynchronizationContext.SetSynchronizationContext(new MarkingContext("from awaiter"));
            return value;
        }
        public void OnCompleted(Action continuation) => continuation();
    }
}

static class Program
{
    static string Contexts() => $"ambient={Source.Ambient.Value ?? "null"} context={(SynchronizationContext.Current as MarkingContext)?.Name ?? SynchronizationContext.Current?.GetType().Name ?? "none"}";

    // Each method is given the ValueTask (as helpers that await a caller's ValueTask are), so its own
    // body calls nothing but ValueTask members and awaits.
    static async Task<int> AwaitGiven(ValueTask<int> vt) => await vt;

    static async Task<string> AwaitGivenAndLook(ValueTask<int> vt)
    {
        int v = await vt;
        return $"{v} inside: {Contexts()}";
    }

    static async Task AwaitGivenVoid(ValueTask vt) => await vt;

    static async Task<bool> PeekIsCompleted(ValueTask<int> vt) => vt.IsCompleted;

    static async Task<int> GetResultDirectly(ValueTask<int> vt) => vt.GetAwaiter().GetResult();

    static async Task<int> ThroughAsTask(ValueTask<int> vt) => await vt.AsTask();

    static async Task<int> ThroughConfigureAwait(ValueTask<int> vt) => await vt.ConfigureAwait(false);

    static async Task<int> CustomAwaiter(MarkingAwaitable awaitable) => await awaitable;

    static async Task<int> Nested(ValueTask<int> vt) => 1 + await AwaitGiven(vt);

    static async Task<int> FromField(Holder h) => await h.Pending;

    sealed class Holder { public ValueTask<int> Pending; }

    static void Reset()
    {
        Source.Ambient.Value = "caller";
        SynchronizationContext.SetSynchronizationContext(null);
    }

    static async Task Main()
    {
        foreach (var later in new[] { false, true })
        {
            var s = new Source(later);
            Console.WriteLine($"source completes {(later ? "later" : "at once")}");
            Reset(); Console.WriteLine($"  await vt: {await AwaitGiven(s.Start())}; caller {Contexts()}");
            Reset(); Console.WriteLine($"  inside the method: {await AwaitGivenAndLook(s.Start())}; caller {Contexts()}");
            Reset(); Console.WriteLine($"  nested: {await Nested(s.Start())}; caller {Contexts()}");
            Reset(); Console.WriteLine($"  AsTask: {await ThroughAsTask(s.Start())}; caller {Contexts()}");
            Reset(); Console.WriteLine($"  ConfigureAwait(false): {await ThroughConfigureAwait(s.Start())}; caller {Contexts()}");
            Reset(); Console.WriteLine($"  field: {await FromField(new Holder { Pending = s.Start() })}; caller {Contexts()}");
        }
        var now = new Source(false);
        Reset(); await AwaitGivenVoid(now.StartVoid()); Console.WriteLine($"await non-generic ValueTask: caller {Contexts()}");
        Reset(); Console.WriteLine($"IsCompleted: {await PeekIsCompleted(now.Start())}; caller {Contexts()}");
        Reset(); Console.WriteLine($"GetAwaiter().GetResult(): {await GetResultDirectly(now.Start())}; caller {Contexts()}");
        Reset(); var task = AwaitGiven(now.Start()); Console.WriteLine($"Task read with .Result: {task.Result}; caller {Contexts()}");
        Reset(); Console.WriteLine($"custom awaiter: {await CustomAwaiter(new MarkingAwaitable(7))}; caller {Contexts()}");
    }
}
