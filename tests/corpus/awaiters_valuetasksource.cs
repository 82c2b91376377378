// ValueTask and ValueTask<T> over an IValueTaskSource built on ManualResetValueTaskSourceCore,
// reused across awaits: each ValueTask may be consumed once (GetResult resets the source, a second
// GetResult throws), completed synchronously or later from the thread pool, with results and errors.
using System;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

sealed class ReusableSource : IValueTaskSource<int>, IValueTaskSource
{
    private ManualResetValueTaskSourceCore<int> core;
    public int Consumed;

    public ValueTask<int> Next(int value, bool later, string? error = null)
    {
        if (later)
            ThreadPool.QueueUserWorkItem(_ => { Thread.Sleep(1); Complete(value, error); });
        else
            Complete(value, error);
        return new ValueTask<int>(this, core.Version);
    }

    public ValueTask NextVoid(bool later)
    {
        if (later)
            ThreadPool.QueueUserWorkItem(_ => core.SetResult(0));
        else
            core.SetResult(0);
        return new ValueTask(this, core.Version);
    }

    private void Complete(int value, string? error)
    {
        if (error is null) core.SetResult(value);
        else core.SetException(new InvalidCastException(error));
    }

    public int GetResult(short token)
    {
        try
        {
            return core.GetResult(token);
        }
        finally
        {
            Consumed++;
            core.Reset();
        }
    }

    void IValueTaskSource.GetResult(short token) => GetResult(token);

    public ValueTaskSourceStatus GetStatus(short token) => core.GetStatus(token);

    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        core.OnCompleted(continuation, state, token, flags);
}

static class Program
{
    static bool Suspend;

    static async Task<string> Consume(ReusableSource source)
    {
        int sum = 0;
        for (int i = 1; i <= 4; i++)
            sum += await source.Next(i, Suspend && i % 2 == 0);
        await source.NextVoid(Suspend);
        int x = 100 + await source.Next(5, Suspend).ConfigureAwait(false);
        await source.NextVoid(false).ConfigureAwait(true);
        string e;
        try
        {
            await source.Next(0, Suspend, "broken source");
            e = "no error";
        }
        catch (InvalidCastException ex)
        {
            e = ex.GetType().Name + ": " + ex.Message;
        }
        return $"sum={sum} x={x} {e} consumed={source.Consumed}";
    }

    static async Task<int> Passthrough(ReusableSource source, int v) => await source.Next(v, Suspend) * 2;

    static async Task<string> DoubleConsume(ReusableSource source)
    {
        var vt = source.Next(7, false);
        int first = await vt;
        try
        {
            int second = await vt;
            return $"second await gave {second}";
        }
        catch (Exception ex)
        {
            return $"first={first} then {ex.GetType().Name}";
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var source = new ReusableSource();
            Console.WriteLine(await Consume(source));
            Console.WriteLine($"{await Passthrough(source, 21)} consumed={source.Consumed}");
            Console.WriteLine(await DoubleConsume(new ReusableSource()));
        }
    }
}
