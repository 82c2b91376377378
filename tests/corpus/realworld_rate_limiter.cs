// Real-world: a per-tenant token-bucket rate limiter with a fake clock. Bucket state lives in an
// array of mutable structs updated with compound assignments whose right-hand sides await
// (buckets[i].Tokens += await Refill(...)), nullable lifted arithmetic and ??= over awaited
// values, deconstruction of an awaited tuple into an array element and a field, named arguments
// given out of order whose values await (evaluation order is observable in a log), conditional
// access calls with awaited arguments, and an exception filter reading a local assigned from an
// await; a concurrent burst on the pool (guarded by a SemaphoreSlim, counted with Interlocked through a conditional ref) checks that
// exactly the bucket capacity is admitted.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

struct Bucket
{
    public string Tenant;
    public double Tokens;
    public long LastRefill;
    public int? Denied;
}

sealed class RateLimitedException(string tenant, double tokens) : Exception($"{tenant} limited ({tokens:0.0} left)")
{
    public double Tokens { get; } = tokens;
}

sealed class Limiter
{
    public static bool Suspend;
    public readonly List<string> Trace = new();
    private readonly Bucket[] buckets;
    private readonly double capacity, perTick;
    public long Now;
    private (string Tenant, long At) lastDenied;

    public Limiter(string[] tenants, double capacity, double perTick)
    {
        buckets = new Bucket[tenants.Length];
        for (int i = 0; i < tenants.Length; i++) buckets[i] = new Bucket { Tenant = tenants[i], Tokens = capacity };
        (this.capacity, this.perTick) = (capacity, perTick);
    }

    static async Task<T> Step<T>(List<string> trace, string label, T value)
    {
        if (Suspend) await Task.Yield();
        trace.Add(label);
        return value;
    }

    private async Task<double> Refill(int i)
    {
        if (Suspend) await Task.Delay(1);
        long elapsed = Now - buckets[i].LastRefill;
        buckets[i].LastRefill = Now;
        return Math.Min(capacity - buckets[i].Tokens, elapsed * perTick);
    }

    private int IndexOf(string tenant) => Array.FindIndex(buckets, b => b.Tenant == tenant);

    public async Task<double> Acquire(string tenant, double cost = 1, bool wait = false)
    {
        int i = IndexOf(tenant);
        buckets[i].Tokens += await Refill(i);
        if (buckets[i].Tokens >= cost)
        {
            buckets[i].Tokens -= await Step(Trace, $"take {tenant}", cost);
            return buckets[i].Tokens;
        }
        buckets[i].Denied = (buckets[i].Denied ?? 0) + await Step(Trace, $"deny {tenant}", 1);
        (lastDenied, Now) = (await Step(Trace, "record", (tenant, Now)), Now + (wait ? 1 : 0));
        throw new RateLimitedException(tenant, buckets[i].Tokens);
    }

    public async Task<string> Describe(string tenant, string prefix, int width)
    {
        var b = buckets[IndexOf(tenant)];
        return $"{prefix}{b.Tenant.PadRight(width)} tokens={b.Tokens:0.0} denied={b.Denied?.ToString() ?? "-"}";
    }

    public string LastDenied => $"{lastDenied.Tenant}@{lastDenied.At}";
}

static class Program
{
    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Limiter.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var limiter = new Limiter(["free", "pro"], capacity: 3, perTick: 0.5);
            var outcomes = new List<string>();
            foreach (var (tick, tenant, cost) in new[] { (0, "free", 1.0), (0, "free", 1.0), (0, "free", 1.0), (0, "free", 1.0), (1, "pro", 2.5), (2, "free", 1.0), (2, "pro", 1.0), (6, "free", 2.0), (6, "free", 2.0) })
            {
                limiter.Now = tick;
                double left = -1;
                try
                {
                    left = await limiter.Acquire(tenant, cost);
                    outcomes.Add($"t{tick} {tenant} ok {left:0.0}");
                }
                catch (RateLimitedException e) when (left < 0 && e.Tokens < cost)
                {
                    outcomes.Add($"t{tick} {tenant} limited {e.Tokens:0.0}");
                }
            }
            Console.WriteLine(string.Join("\n", outcomes));
            Console.WriteLine($"last denied {limiter.LastDenied}");

            Limiter? maybe = suspend ? limiter : null;
            var described = await limiter.Describe(width: await Task.FromResult(5), tenant: await Task.Run(() => "free"), prefix: "> ");
            Console.WriteLine(described);
            Console.WriteLine((await (maybe?.Describe("pro", await Task.FromResult("? "), 4) ?? Task.FromResult("(no limiter)"))));
            int? extra = null;
            extra ??= await Task.FromResult<int?>(2);
            extra += await Task.FromResult<int?>(null) ?? 3;
            Console.WriteLine($"extra {extra}, trace {string.Join(",", limiter.Trace)}");

            var burst = new Limiter(["api"], capacity: 25, perTick: 0);
            var gate = new SemaphoreSlim(1, 1);
            int admitted = 0, rejected = 0;
            var tasks = new Task[8];
            for (int t = 0; t < tasks.Length; t++)
                tasks[t] = Task.Run(async () =>
                {
                    for (int k = 0; k < 5; k++)
                    {
                        bool ok = true;
                        await gate.WaitAsync();
                        try { await burst.Acquire("api"); }
                        catch (RateLimitedException) { ok = false; }
                        finally { gate.Release(); }
                        Interlocked.Increment(ref ok ? ref admitted : ref rejected);
                    }
                });
            await Task.WhenAll(tasks);
            Console.WriteLine($"burst admitted {admitted} rejected {rejected}");
        }
    }
}
