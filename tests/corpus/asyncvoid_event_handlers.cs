// async void event handlers (the use async void exists for) awaiting rewritten methods: several
// handlers on one event, each finishing after suspensions and reporting through a
// TaskCompletionSource; a handler catching its own exception; handlers started in order, finishing
// in an order made deterministic by waiting for each in turn; async void lambdas as handlers.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

sealed class Button
{
    public event EventHandler<int>? Clicked;
    public void Click(int n) => Clicked?.Invoke(this, n);
}

static class Program
{
    static bool Suspend;
    static readonly List<string> log = new();
    static readonly Dictionary<string, TaskCompletionSource> done = new();

    static async Task<int> Load(int n)
    {
        if (Suspend) await Task.Delay(1);
        return n * 10;
    }

    static async Task Fail()
    {
        if (Suspend) await Task.Yield();
        throw new InvalidOperationException("handler failed");
    }

    static async void OnClickedLoad(object? sender, int n)
    {
        lock (log) log.Add("load handler started " + n);
        int v = await Load(n);
        lock (log) log.Add("load handler loaded " + v);
        done["load"].SetResult();
    }

    static async void OnClickedFail(object? sender, int n)
    {
        try { await Fail(); }
        catch (InvalidOperationException e) { lock (log) log.Add("fail handler caught " + e.Message); }
        done["fail"].SetResult();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            log.Clear();
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var name in new[] { "load", "fail", "lambda" }) done[name] = new TaskCompletionSource();
            var button = new Button();
            button.Clicked += OnClickedLoad;
            button.Clicked += OnClickedFail;
            button.Clicked += async (_, n) =>
            {
                int v = await Load(n + 1);
                lock (log) log.Add("lambda handler loaded " + v);
                done["lambda"].SetResult();
            };
            button.Click(3);
            lock (log) log.Add("Click returned");
            await done["load"].Task;
            await done["fail"].Task;
            await done["lambda"].Task;
            var lines = new List<string>(log);
            if (Suspend) lines.Sort(StringComparer.Ordinal);
            foreach (var line in lines) Console.WriteLine("  " + line);
        }
    }
}
