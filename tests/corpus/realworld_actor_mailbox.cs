// Real-world: actors with mailboxes. Each actor runs one long-lived async loop that awaits an
// unbounded Channel of message records and handles them one at a time in a switch statement over
// type patterns with `when` guards, awaits in the case bodies and `using` declarations scoped to
// a case; Ask<TReply> sends a message carrying a TaskCompletionSource<TReply> and awaits the
// reply, actors message each other (a bank of counters and a supervisor that restarts a child
// after a failure), Stop drains the mailbox, and many senders on the pool post concurrently
// (only order-independent totals are printed).
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;

abstract record Message;
sealed record Add(string Key, int Amount) : Message;
sealed record Get(string Key, TaskCompletionSource<int> Reply) : Message;
sealed record Snapshot(TaskCompletionSource<IReadOnlyDictionary<string, int>> Reply) : Message;
sealed record Crash(string Why) : Message;
sealed record Forward(string Key, Actor Target) : Message;

sealed class Scope(List<string> log, string name) : IDisposable
{
    public void Dispose() => log.Add($"end {name}");
}

sealed class Actor
{
    public static bool Suspend;
    private readonly Channel<Message> mailbox = Channel.CreateUnbounded<Message>(new UnboundedChannelOptions { SingleReader = true });
    private readonly Dictionary<string, int> state = new();
    public readonly List<string> Log = new();
    public readonly string Name;
    public readonly Task Completion;
    public int Handled;

    public Actor(string name)
    {
        Name = name;
        Completion = Task.Run(RunAsync);
    }

    public void Tell(Message message)
    {
        if (!mailbox.Writer.TryWrite(message)) throw new InvalidOperationException($"{Name} is stopped");
    }

    public async Task<TReply> Ask<TReply>(Func<TaskCompletionSource<TReply>, Message> build)
    {
        var reply = new TaskCompletionSource<TReply>(TaskCreationOptions.RunContinuationsAsynchronously);
        Tell(build(reply));
        return await reply.Task.ConfigureAwait(false);
    }

    public Task Stop()
    {
        mailbox.Writer.TryComplete();
        return Completion;
    }

    private async Task RunAsync()
    {
        while (await mailbox.Reader.WaitToReadAsync())
        {
            while (mailbox.Reader.TryRead(out var message))
            {
                if (Suspend) await Task.Yield();
                switch (message)
                {
                    case Add { Amount: 0 }:
                        break;
                    case Add(var key, var amount) when amount < 0:
                        using (new Scope(Log, "negative"))
                        {
                            await Task.Delay(Suspend ? 1 : 0);
                            Log.Add($"rejected {key} {amount}");
                        }
                        break;
                    case Add(var key, var amount):
                        state[key] = checked(state.GetValueOrDefault(key) + amount);
                        break;
                    case Get get:
                        using (var scope = new Scope(Log, "get " + get.Key))
                        {
                            if (Suspend) await Task.Yield();
                            get.Reply.SetResult(state.GetValueOrDefault(get.Key));
                        }
                        break;
                    case Snapshot snapshot:
                        snapshot.Reply.SetResult(new SortedDictionary<string, int>(state));
                        break;
                    case Forward(var key, var target):
                        int value = state.GetValueOrDefault(key);
                        int there = await target.Ask<int>(r => new Get(key, r));
                        target.Tell(new Add(key, value));
                        Log.Add($"forwarded {key}={value} to {target.Name} (had {there})");
                        break;
                    case Crash crash:
                        Log.Add($"crashing: {crash.Why}");
                        throw new InvalidOperationException(crash.Why);
                }
                Handled++;
            }
        }
        Log.Add($"stopped after {Handled}");
    }
}

static class Program
{
    static string Show(IReadOnlyDictionary<string, int> d)
    {
        var parts = new List<string>();
        foreach (var (k, v) in d) parts.Add($"{k}={v}");
        return "{" + string.Join(",", parts) + "}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Actor.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var counters = new Actor("counters");
            counters.Tell(new Add("a", 5));
            counters.Tell(new Add("a", 0));
            counters.Tell(new Add("b", -1));
            counters.Tell(new Add("b", 2));
            Console.WriteLine($"a = {await counters.Ask<int>(r => new Get("a", r))}, b = {await counters.Ask<int>(r => new Get("b", r))}");

            var senders = new Task[8];
            for (int s = 0; s < senders.Length; s++)
            {
                int id = s;
                senders[s] = Task.Run(async () =>
                {
                    for (int i = 0; i < 50; i++)
                    {
                        counters.Tell(new Add(id % 2 == 0 ? "even" : "odd", i));
                        if (i % 10 == 0) await Task.Yield();
                    }
                });
            }
            await Task.WhenAll(senders);
            Console.WriteLine("after senders " + Show(await counters.Ask<IReadOnlyDictionary<string, int>>(r => new Snapshot(r))));

            var archive = new Actor("archive");
            archive.Tell(new Add("a", 100));
            counters.Tell(new Forward("a", archive));
            await counters.Ask<int>(r => new Get("a", r)); // the forward (and its Add to archive) is done
            Console.WriteLine("archive " + Show(await archive.Ask<IReadOnlyDictionary<string, int>>(r => new Snapshot(r))));

            var child = new Actor("child");
            child.Tell(new Add("x", 1));
            child.Tell(new Crash("disk full"));
            child.Tell(new Add("x", 1));
            try { await child.Completion; }
            catch (InvalidOperationException e)
            {
                Console.WriteLine($"supervisor saw {child.Name} fail: {e.Message}, handled {child.Handled}");
                child = new Actor("child#2");
                child.Tell(new Add("x", 41));
            }
            Console.WriteLine($"restarted x = {await child.Ask<int>(r => new Get("x", r))}");

            foreach (var actor in new[] { counters, archive, child })
            {
                await actor.Stop();
                Console.WriteLine($"{actor.Name}: {string.Join(" | ", actor.Log)}");
            }
            try { counters.Tell(new Add("a", 1)); }
            catch (InvalidOperationException e) { Console.WriteLine(e.Message); }
        }
    }
}
