// custom awaitables: an awaiter implementing only INotifyCompletion (AwaitAwaiter), one implementing
// ICriticalNotifyCompletion (UnsafeAwaitAwaiter), struct and class awaiters, awaiters that complete
// synchronously and ones that complete later on another thread, void and valued GetResult, GetResult
// throwing, an extension GetAwaiter, and values on the stack across custom awaits.
using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

/// <summary>Awaitable whose awaiter only implements INotifyCompletion.</summary>
sealed class SlowValue
{
    public readonly int Value;
    public readonly bool Later;
    public readonly string? Error;
    public SlowValue(int value, bool later, string? error = null) { Value = value; Later = later; Error = error; }
    public Awaiter GetAwaiter() => new Awaiter(this);

    public sealed class Awaiter : INotifyCompletion
    {
        private readonly SlowValue owner;
        private int getResultCalls;
        public Awaiter(SlowValue owner) => this.owner = owner;
        public bool IsCompleted => !owner.Later;
        public void OnCompleted(Action continuation) => ThreadPool.QueueUserWorkItem(_ => { Thread.Sleep(1); continuation(); });
        public int GetResult()
        {
            if (++getResultCalls > 1) throw new InvalidOperationException("GetResult called twice");
            if (owner.Error is not null) throw new FormatException(owner.Error);
            return owner.Value;
        }
    }
}

/// <summary>Awaitable struct whose struct awaiter implements ICriticalNotifyCompletion.</summary>
readonly struct Signal
{
    public readonly bool Later;
    public Signal(bool later) => Later = later;
    public SignalAwaiter GetAwaiter() => new SignalAwaiter(Later);
}

readonly struct SignalAwaiter : ICriticalNotifyCompletion
{
    private readonly bool later;
    public SignalAwaiter(bool later) => this.later = later;
    public bool IsCompleted => !later;
    public void OnCompleted(Action continuation) => throw new InvalidOperationException("OnCompleted must not be used");
    public void UnsafeOnCompleted(Action continuation)
    {
        var timer = new Timer(_ => continuation());
        timer.Change(2, Timeout.Infinite);
    }
    public void GetResult() { }
}

readonly struct Seconds
{
    public readonly double Value;
    public Seconds(double value) => Value = value;
}

static class SecondsExtensions
{
    public static TaskAwaiter<string> GetAwaiter(this Seconds s) =>
        (Program.Suspend ? Task.Delay(1).ContinueWith(_ => "waited " + s.Value) : Task.FromResult("waited " + s.Value)).GetAwaiter();
}

static class Program
{
    public static bool Suspend;

    static async Task<string> Basics()
    {
        int a = await new SlowValue(1, Suspend);
        await new Signal(Suspend);
        int b = 10 * await new SlowValue(2, Suspend) + await new SlowValue(3, false);
        string c = await new Seconds(1.5);
        string d = "[" + await new SlowValue(4, Suspend) + "," + await new Seconds(2) + "]";
        return $"{a} {b} {c} {d}";
    }

    static async Task<string> Throwing()
    {
        try
        {
            await new Signal(Suspend);
            return "value " + await new SlowValue(5, Suspend, "bad value");
        }
        catch (FormatException e)
        {
            return e.GetType().Name + ": " + e.Message;
        }
    }

    static async Task<int> Loop()
    {
        int sum = 0;
        for (int i = 0; i < 5; i++)
        {
            await new Signal(Suspend && i % 2 == 0);
            sum += await new SlowValue(i, Suspend && i % 2 == 1);
        }
        return sum;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Basics());
            Console.WriteLine(await Throwing());
            Console.WriteLine(await Loop());
        }
    }
}
