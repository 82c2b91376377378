// AsyncLocal values with change notifications, as CultureInfo.CurrentCulture and Activity.Current
// use them. An async method that sets a value and suspends gives its caller back the caller's value
// at once: one notification for the set, one for the switch back, and none other while the Task is
// handed back (a registration run in the suspended method's context and switched back from was
// seen as two more). The window is logged from the call until the Task is returned; the transient
// switches while a resumption unwinds are left out (classic nests them by its boxes' contexts), as
// are three or more nested methods that each set a value (Async2 switches back to the outermost
// caller's values in one step: docs/design.md). Then the values each side sees after the awaits.
// Only the calling thread's notifications are logged: a thread-pool thread that ran an earlier
// scenario's ConfigureAwait(false) continuation switches back to the default context whenever the
// scheduler lets it, which may fall inside a later window.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

static class Program
{
    static readonly List<string> Log = new();
    static int RecordingThread = -1;
    static readonly AsyncLocal<string?> Scope = new(args =>
    {
        if (Environment.CurrentManagedThreadId == Volatile.Read(ref RecordingThread))
            Log.Add($"{args.PreviousValue ?? "null"}->{args.CurrentValue ?? "null"}{(args.ThreadContextChanged ? " (switch)" : "")}");
    });

    static TaskCompletionSource<int> Gate = new();

    sealed class Signal : ICriticalNotifyCompletion
    {
        Action? continuation;
        public Signal GetAwaiter() => this;
        public bool IsCompleted => false;
        public void GetResult() { }
        public void OnCompleted(Action c) => continuation = c;
        public void UnsafeOnCompleted(Action c) => continuation = c;
        public void Fire() { var c = continuation!; continuation = null; c(); }
    }

    static readonly Signal Custom = new();

    sealed class Source : IValueTaskSource<int>
    {
        ManualResetValueTaskSourceCore<int> core;
        public ValueTask<int> Next() { core.Reset(); return new ValueTask<int>(this, core.Version); }
        public void Complete(int value) => core.SetResult(value);
        public int GetResult(short token) => core.GetResult(token);
        public ValueTaskSourceStatus GetStatus(short token) => core.GetStatus(token);
        public void OnCompleted(Action<object?> c, object? s, short token, ValueTaskSourceOnCompletedFlags f) => core.OnCompleted(c, s, token, f);
    }

    static readonly Source Values = new();

    static async Task<string> YieldsIn(string value)
    {
        Scope.Value = value;
        await Task.Yield();
        return $"{value} sees {Scope.Value}";
    }

    static async Task<string> WaitsForGate(string value)
    {
        Scope.Value = value;
        int n = await Gate.Task;
        return $"{value} sees {Scope.Value} ({n})";
    }

    static async Task<string> WaitsForGateUnconfigured(string value)
    {
        Scope.Value = value;
        int n = await Gate.Task.ConfigureAwait(false);
        return $"{value} sees {Scope.Value} ({n})";
    }

    static async Task<string> WaitsForCustom(string value)
    {
        Scope.Value = value;
        await Custom;
        return $"{value} sees {Scope.Value}";
    }

    static async ValueTask<string> WaitsForSource(string value)
    {
        Scope.Value = value;
        int n = await Values.Next();
        return $"{value} sees {Scope.Value} ({n})";
    }

    // Each caller awaits its callee directly (no delegate), so the callee's frame and the
    // caller's share one chain, which suspends through the caller's Task.
    static async Task<string> OuterYield() => await YieldsIn("callee");
    static async Task<string> OuterGate() => await WaitsForGate("callee");
    static async Task<string> OuterGateUnconfigured() => await WaitsForGateUnconfigured("callee");
    static async Task<string> OuterCustom() => await WaitsForCustom("callee");
    static async Task<string> OuterSource() => await WaitsForSource("callee");

    static async Task<string> MiddleYield()
    {
        Scope.Value = "middle";
        string seen = await YieldsIn("leaf");
        return $"{seen}; middle sees {Scope.Value}";
    }

    static async Task<string> MiddleGate()
    {
        Scope.Value = "middle";
        string seen = await WaitsForGate("leaf");
        return $"{seen}; middle sees {Scope.Value}";
    }

    static async Task<string> MiddleCustom()
    {
        Scope.Value = "middle";
        string seen = await WaitsForCustom("leaf");
        return $"{seen}; middle sees {Scope.Value}";
    }

    static async Task<string> MiddleSource()
    {
        Scope.Value = "middle";
        string seen = await WaitsForSource("leaf").ConfigureAwait(false);
        return $"{seen}; middle sees {Scope.Value}";
    }

    static async Task<string> ThroughOuter() => await OuterYield();

    static async Task Scenario(string name, Func<Task<string>> start, Action release)
    {
        Scope.Value = "caller";
        Volatile.Write(ref RecordingThread, Environment.CurrentManagedThreadId);
        var task = start();
        Volatile.Write(ref RecordingThread, -1);
        Console.WriteLine($"{name}: {string.Join(", ", Log)} | caller sees {Scope.Value}");
        Log.Clear();
        release();
        Console.WriteLine($"  {await task} | caller sees {Scope.Value}");
    }

    static async Task Body()
    {
        await Scenario("yield", OuterYield, () => { });
        await Scenario("yield, two levels", MiddleYield, () => { });
        await Scenario("yield, through a caller that sets nothing", ThroughOuter, () => { });
        await Scenario("task", OuterGate, () => Gate.SetResult(1));
        Gate = new();
        await Scenario("task, ConfigureAwait(false)", OuterGateUnconfigured, () => Gate.SetResult(2));
        Gate = new();
        await Scenario("task, two levels", MiddleGate, () => Gate.SetResult(3));
        await Scenario("custom awaiter", OuterCustom, Custom.Fire);
        await Scenario("custom awaiter, two levels", MiddleCustom, Custom.Fire);
        await Scenario("value task source", OuterSource, () => Values.Complete(4));
        await Scenario("value task source, two levels", MiddleSource, () => Values.Complete(5));
        Console.WriteLine($"end: {Scope.Value}");
    }

    static void Main()
    {
        var loop = new SingleThreadLoop();
        loop.RunUntilComplete(Body);
        loop.Stop();
    }
}
