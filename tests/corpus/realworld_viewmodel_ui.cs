// Real-world: a desktop-style view model on a single-threaded UI loop (SingleThreadLoop as the
// SynchronizationContext). Async void "click" handlers with try/catch/finally toggle IsBusy,
// library code uses ConfigureAwait(false) and runs on the pool, IProgress<T> (Progress<T>) reports
// back to the UI thread, a command guards re-entrancy, continuations after awaits without
// ConfigureAwait return to the UI thread (checked with IsCurrent, not thread ids), a cancel button
// cancels a running load, and PropertyChanged events record the order of UI updates.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

static class Library
{
    public static async Task<List<string>> LoadItemsAsync(int count, IProgress<int> progress, CancellationToken token)
    {
        var items = new List<string>();
        for (int i = 1; i <= count; i++)
        {
            await Task.Delay(1, token).ConfigureAwait(false);
            items.Add($"item{i}");
            progress.Report(i * 100 / count);
        }
        return items;
    }

    public static async Task<int> SaveAsync(IReadOnlyList<string> items)
    {
        await Task.Yield();
        if (items.Count == 0) throw new InvalidOperationException("nothing to save");
        return await Task.Run(() => items.Count).ConfigureAwait(false);
    }
}

sealed class MainViewModel(SingleThreadLoop ui)
{
    public readonly List<string> Changes = new();
    public readonly TaskCompletionSource Idle = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private CancellationTokenSource? loading;
    private List<string> items = new();
    private bool isBusy;
    private int finishedClicks;
    public int ExpectedClicks;

    public event Action<string>? PropertyChanged;

    public bool IsBusy
    {
        get => isBusy;
        set { isBusy = value; Raise($"IsBusy={value}"); }
    }

    public string Status { set => Raise($"Status={value}"); }

    private void Raise(string change)
    {
        Changes.Add((ui.IsCurrent ? "" : "OFF-UI ") + change);
        PropertyChanged?.Invoke(change);
    }

    public void Click(Func<Task> handler) => ui.Post(_ => OnClick(handler), null);

    private async void OnClick(Func<Task> handler)
    {
        try { await handler(); }
        catch (Exception e) { Status = $"error: {e.Message}"; }
        finally
        {
            if (++finishedClicks == ExpectedClicks) Idle.TrySetResult();
        }
    }

    public async Task LoadCommand(int count)
    {
        if (IsBusy) { Status = "busy, ignored"; return; }
        IsBusy = true;
        using var cts = loading = new CancellationTokenSource();
        var lastReported = -1;
        var progress = new Progress<int>(p =>
        {
            if (p >= lastReported + 50 || p == 100) { lastReported = p; Status = $"{p}%"; }
        });
        try
        {
            items = await Library.LoadItemsAsync(count, progress, cts.Token);
            await Task.Yield();
            Status = $"loaded {items.Count} on ui={ui.IsCurrent}";
        }
        catch (OperationCanceledException)
        {
            Status = $"canceled on ui={ui.IsCurrent}";
        }
        finally
        {
            loading = null;
            IsBusy = false;
        }
    }

    public Task CancelCommand()
    {
        loading?.Cancel();
        return Task.CompletedTask;
    }

    public async Task SaveCommand()
    {
        int saved = await Library.SaveAsync(items);
        Status = $"saved {saved} on ui={ui.IsCurrent}";
        items = new List<string>();
    }
}

static class Program
{
    static async Task Scenario(string name, int clicks, Func<MainViewModel, Task> script)
    {
        var ui = new SingleThreadLoop("ui");
        var vm = new MainViewModel(ui) { ExpectedClicks = clicks };
        await script(vm);
        await vm.Idle.Task;
        await Task.Run(() => ui.Send(_ => { }, null));
        ui.Stop();
        Console.WriteLine($"{name}:");
        foreach (var change in vm.Changes) Console.WriteLine("  " + change);
    }

    static async Task Main()
    {
        await Scenario("load then save", 3, async vm =>
        {
            var loaded = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            vm.PropertyChanged += change => { if (change == "IsBusy=False") loaded.TrySetResult(); };
            vm.Click(() => vm.LoadCommand(4));
            vm.Click(() => vm.LoadCommand(4));
            await loaded.Task;
            vm.Click(vm.SaveCommand);
        });

        await Scenario("save with nothing loaded", 1, vm =>
        {
            vm.Click(vm.SaveCommand);
            return Task.CompletedTask;
        });

        await Scenario("cancel while loading", 2, async vm =>
        {
            var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            vm.PropertyChanged += change => { if (change == "IsBusy=True") started.TrySetResult(); };
            vm.Click(() => vm.LoadCommand(100_000));
            await started.Task;
            vm.Click(vm.CancelCommand);
        });
    }
}
