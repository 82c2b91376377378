// An in-process actor system on a single-threaded loop. A generic Actor<TMsg> base runs
// one mailbox loop (Channel<TMsg>, ReadAsync with the system's shutdown token) calling a
// replaceable behaviour (Func<TMsg, ValueTask> fields assigned to async lambdas: "become", with a
// stash replayed on unstash), virtual async PreStart/PostStop hooks overridden with base calls,
// request/reply through TaskCompletionSource with a cancellation registration; a supervisor
// restarts a crashing child (keeping its mailbox, up to a limit, then escalates), an order
// workflow asks the inventory and payment actors in sequence and compensates on failure, and
// shutdown cancels the loops and the pending asks.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;

sealed class ActorSystem
{
    public static bool Suspend;
    public readonly CancellationTokenSource Shutdown = new();
    public readonly List<string> Journal = new();
    public void Log(string line) => Journal.Add(line);
    public static async ValueTask Maybe(int n) { if (Suspend && n % 2 == 0) await Task.Yield(); }
}

abstract class Actor<TMsg>
{
    protected readonly ActorSystem System;
    private readonly Channel<TMsg> mailbox = Channel.CreateUnbounded<TMsg>();
    private readonly Queue<TMsg> stash = new();
    protected Func<TMsg, ValueTask> Behaviour;
    public string Name { get; }
    public int Incarnation { get; private set; }
    public Task Completion { get; private set; } = Task.CompletedTask;

    protected Actor(ActorSystem system, string name)
    {
        System = system;
        Name = name;
        Behaviour = Receive;
    }

    public void Tell(TMsg msg)
    {
        if (!mailbox.Writer.TryWrite(msg)) System.Log($"{Name}: dead letter {msg}");
    }

    public async Task<TReply> Ask<TReply>(Func<TaskCompletionSource<TReply>, TMsg> build, CancellationToken token = default)
    {
        var tcs = new TaskCompletionSource<TReply>();
        using var reg = token.Register(static s => ((TaskCompletionSource<TReply>)s!).TrySetCanceled(), tcs);
        Tell(build(tcs));
        return await tcs.Task;
    }

    public void Start()
    {
        Incarnation++;
        Behaviour = Receive;
        Completion = RunAsync(System.Shutdown.Token);
    }

    public void Complete() => mailbox.Writer.TryComplete();

    protected void Become(Func<TMsg, ValueTask> next) => Behaviour = next;
    protected void StashCurrent(TMsg msg) => stash.Enqueue(msg);
    protected void Unstash()
    {
        var replay = stash.ToArray();
        stash.Clear();
        foreach (var m in replay) mailbox.Writer.TryWrite(m); // to the back: stays deterministic for the tests
    }

    protected abstract ValueTask Receive(TMsg msg);

    protected virtual async Task PreStart()
    {
        await ActorSystem.Maybe(Incarnation);
        System.Log($"{Name}#{Incarnation} started");
    }

    protected virtual async Task PostStop(Exception? error)
    {
        await ActorSystem.Maybe(Incarnation + 1);
        System.Log($"{Name}#{Incarnation} stopped{(error is null ? "" : " with " + error.GetType().Name + ": " + error.Message)}");
    }

    private async Task RunAsync(CancellationToken token)
    {
        await PreStart();
        Exception? error = null;
        try
        {
            while (true)
            {
                TMsg msg;
                try { msg = await mailbox.Reader.ReadAsync(token); }
                catch (ChannelClosedException) { break; }
                await Behaviour(msg);
            }
        }
        catch (OperationCanceledException) when (token.IsCancellationRequested)
        {
            error = null;
        }
        catch (Exception e)
        {
            error = e;
            throw;
        }
        finally
        {
            await PostStop(error);
        }
    }
}

abstract record InvMsg;
sealed record Reserve(string Sku, int Qty, TaskCompletionSource<bool> Reply) : InvMsg;
sealed record Release(string Sku, int Qty) : InvMsg;
sealed record Restock(string Sku, int Qty) : InvMsg;
sealed record Audit(TaskCompletionSource<string> Reply) : InvMsg;
sealed record Pause(TaskCompletionSource Resume) : InvMsg;

sealed class Inventory(ActorSystem system) : Actor<InvMsg>(system, "inventory")
{
    private readonly SortedDictionary<string, int> stock = new() { ["apple"] = 5, ["pear"] = 2, ["plum"] = 0 };

    protected override async ValueTask Receive(InvMsg msg)
    {
        switch (msg)
        {
            case Reserve(var sku, var qty, var reply) when stock.TryGetValue(sku, out var have) && have >= qty:
                await ActorSystem.Maybe(qty);
                stock[sku] = have - qty;
                reply.SetResult(true);
                break;
            case Reserve r:
                r.Reply.SetResult(false);
                break;
            case Release(var sku, var qty):
                stock[sku] += qty;
                break;
            case Restock(var sku, var qty):
                stock[sku] = stock.GetValueOrDefault(sku) + qty;
                break;
            case Audit a:
                a.Reply.SetResult(string.Join(",", stock.Select(kv => $"{kv.Key}={kv.Value}")));
                break;
            case Pause p:
                System.Log("inventory paused");
                Become(async m =>
                {
                    if (m is Audit) { await Receive(m); return; }
                    StashCurrent(m);
                    System.Log($"inventory stashed {m.GetType().Name}");
                });
                _ = ResumeWhen(p.Resume.Task);
                break;
        }
    }

    private async Task ResumeWhen(Task signal)
    {
        await signal;
        System.Log("inventory resumed");
        Become(Receive);
        Unstash();
    }
}

abstract record PayMsg;
sealed record Charge(string Order, decimal Amount, TaskCompletionSource<string> Reply) : PayMsg;
sealed record Refund(string Order) : PayMsg;

sealed class Payments(ActorSystem system) : Actor<PayMsg>(system, "payments")
{
    private readonly Dictionary<string, decimal> charged = new();
    public static decimal Total;

    protected override async Task PreStart()
    {
        await base.PreStart();
        System.Log($"payments#{Incarnation} ledger has {charged.Count}");
    }

    protected override async ValueTask Receive(PayMsg msg)
    {
        await ActorSystem.Maybe(charged.Count);
        switch (msg)
        {
            case Charge { Amount: <= 0 } c:
                c.Reply.SetException(new ArgumentOutOfRangeException(nameof(c.Amount), "amount must be positive"));
                break;
            case Charge { Amount: > 1000 } c:
                // the gateway blows up: the actor crashes with the ask still pending
                c.Reply.TrySetException(new InvalidOperationException("gateway crashed"));
                throw new InvalidOperationException($"gateway crash on {c.Order}");
            case Charge c:
                charged[c.Order] = c.Amount;
                Total += c.Amount;
                c.Reply.SetResult($"tx-{c.Order}-{charged.Count}");
                break;
            case Refund(var order) when charged.Remove(order, out var amount):
                Total -= amount;
                System.Log($"refunded {order} {amount}");
                break;
            case Refund(var order):
                System.Log($"nothing to refund for {order}");
                break;
        }
    }
}

sealed class Supervisor(ActorSystem system, int maxRestarts)
{
    public async Task Watch<TMsg>(Actor<TMsg> child)
    {
        int restarts = 0;
        while (true)
        {
            try
            {
                await child.Completion;
                system.Log($"supervisor: {child.Name} ended normally");
                return;
            }
            catch (InvalidOperationException e) when (restarts < maxRestarts)
            {
                restarts++;
                system.Log($"supervisor: restarting {child.Name} ({restarts}/{maxRestarts}) after {e.Message}");
                child.Start();
            }
            catch (Exception e)
            {
                system.Log($"supervisor: escalating {child.Name}: {e.Message}");
                throw new AggregateException($"{child.Name} gave up", e);
            }
        }
    }
}

static class Orders
{
    public static async Task<string> Place(Inventory inv, Payments pay, string order, string sku, int qty, decimal price, CancellationToken token)
    {
        bool reserved = await inv.Ask<bool>(r => new Reserve(sku, qty, r), token);
        if (!reserved) return $"{order}: out of stock";
        try
        {
            string tx = await pay.Ask<string>(r => new Charge(order, qty * price, r), token);
            return $"{order}: ok {tx}";
        }
        catch (Exception e) when (e is ArgumentOutOfRangeException or InvalidOperationException)
        {
            inv.Tell(new Release(sku, qty));
            return $"{order}: payment failed ({e.Message.Split('\n')[0].Split(" (Parameter")[0]}), released {qty} {sku}";
        }
    }
}

static class Program
{
    static async Task RunSystem()
    {
        var system = new ActorSystem();
        var inv = new Inventory(system);
        var pay = new Payments(system);
        Payments.Total = 0;
        inv.Start();
        pay.Start();
        var supervisor = new Supervisor(system, maxRestarts: 3);
        var watchInv = supervisor.Watch(inv);
        var watchPay = supervisor.Watch(pay);
        var token = system.Shutdown.Token;

        Console.WriteLine(await Orders.Place(inv, pay, "o1", "apple", 2, 3m, token));
        Console.WriteLine(await Orders.Place(inv, pay, "o2", "plum", 1, 3m, token));
        Console.WriteLine(await Orders.Place(inv, pay, "o3", "pear", 2, 0m, token));
        Console.WriteLine(await Orders.Place(inv, pay, "o4", "pear", 2, 600m, token));
        Console.WriteLine(await Orders.Place(inv, pay, "o5", "apple", 1, 7m, token));
        pay.Tell(new Refund("o5"));
        pay.Tell(new Refund("o4"));

        var resume = new TaskCompletionSource();
        inv.Tell(new Pause(resume));
        inv.Tell(new Restock("plum", 4));
        var pending = Orders.Place(inv, pay, "o6", "plum", 3, 2m, token);
        Console.WriteLine($"audit while paused: {await inv.Ask<string>(r => new Audit(r), token)}; o6 done={pending.IsCompleted}");
        resume.SetResult();
        Console.WriteLine(await pending);
        Console.WriteLine($"audit: {await inv.Ask<string>(r => new Audit(r), token)}");

        Console.WriteLine(await Orders.Place(inv, pay, "o7", "apple", 1, 2000m, token));
        await Task.Yield();
        Console.WriteLine(await Orders.Place(inv, pay, "o8", "apple", 1, 5000m, token));
        await Task.Yield();
        Console.WriteLine(await Orders.Place(inv, pay, "o9", "apple", 1, 1500m, token));
        try { await watchPay; }
        catch (AggregateException e) { Console.WriteLine($"escalated: {e.Message} / {e.InnerException?.Message}"); }

        var orphan = pay.Ask<string>(r => new Charge("o10", 1m, r), token);
        var audit = inv.Ask<string>(r => new Audit(r), token);
        Console.WriteLine($"last audit: {await audit}; payments total {Payments.Total}");
        system.Shutdown.Cancel();
        try { await orphan; Console.WriteLine("orphan answered?"); }
        catch (OperationCanceledException e) { Console.WriteLine($"orphan ask: {e.GetType().Name}"); }
        await watchInv;
        inv.Tell(new Restock("apple", 1));
        foreach (var line in system.Journal) Console.WriteLine("  " + line);
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            ActorSystem.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var loop = new SingleThreadLoop("actors");
            loop.RunUntilComplete(RunSystem);
            loop.Stop();
        }
    }
}
