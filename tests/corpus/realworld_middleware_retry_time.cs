// An ASP.NET-Core-like middleware chain (Func<Context, Func<Task>, Task>) run on a
// single-threaded loop with several requests in flight at once: an exception-handling middleware
// with filters and a switch expression, a retry middleware with exponential back-off awaiting
// Task.Delay(TimeSpan, TimeProvider) on a fake TimeProvider that a driver advances, a per-request
// AsyncLocal scope (set in async middleware, restored when it returns; set in a non-async
// middleware, visible to its caller), IAsyncDisposable scoped services disposed with await using
// in reverse order, a timeout middleware using CancelAfter on the fake clock, and an endpoint
// table of async lambdas.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

sealed class FakeTime : TimeProvider
{
    private DateTimeOffset now = new(2024, 1, 1, 0, 0, 0, TimeSpan.Zero);
    private readonly List<FakeTimer> timers = new();
    private long sequence;
    public override DateTimeOffset GetUtcNow() => now;
    public override TimeZoneInfo LocalTimeZone => TimeZoneInfo.Utc;
    public override long TimestampFrequency => TimeSpan.TicksPerSecond;
    public override long GetTimestamp() => now.Ticks;

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        var t = new FakeTimer(this, callback, state);
        t.Change(dueTime, period);
        return t;
    }

    public int Pending { get { lock (timers) return timers.Count; } }

    /// <summary>Moves the clock to the earliest timer and fires every timer due then, in creation order.</summary>
    public bool AdvanceToNext()
    {
        List<FakeTimer> due;
        lock (timers)
        {
            if (timers.Count == 0) return false;
            var at = timers.Min(t => t.Due);
            now = at;
            due = timers.Where(t => t.Due <= at).OrderBy(t => t.Sequence).ToList();
            foreach (var t in due) timers.Remove(t);
        }
        foreach (var t in due) t.Fire();
        return true;
    }

    sealed class FakeTimer(FakeTime owner, TimerCallback callback, object? state) : ITimer
    {
        public DateTimeOffset Due;
        public long Sequence;
        public bool Change(TimeSpan dueTime, TimeSpan period)
        {
            lock (owner.timers)
            {
                owner.timers.Remove(this);
                if (dueTime == Timeout.InfiniteTimeSpan) return true;
                Due = owner.now + dueTime;
                Sequence = ++owner.sequence;
                owner.timers.Add(this);
            }
            return true;
        }
        public void Fire() => callback(state);
        public void Dispose() { lock (owner.timers) owner.timers.Remove(this); }
        public ValueTask DisposeAsync() { Dispose(); return default; }
    }
}

sealed class TransientException(string message) : Exception(message);
sealed class ForbiddenException() : Exception("forbidden");

sealed class Context(int id, string path, FakeTime time)
{
    public int Id { get; } = id;
    public string Path { get; } = path;
    public FakeTime Time { get; } = time;
    public int Status = 200;
    public string Body = "";
    public int Attempts;
    public CancellationToken Aborted;
    public readonly List<IAsyncDisposable> Scoped = new();
    public readonly List<string> Log = new();
    public T Service<T>(Func<T> create) where T : IAsyncDisposable
    {
        var s = Scoped.OfType<T>().FirstOrDefault();
        if (s is null) { s = create(); Scoped.Add(s); }
        return s;
    }
}

static class Ambient
{
    public static readonly AsyncLocal<string?> Scope = new();
    public static readonly AsyncLocal<string?> Tenant = new();
}

sealed class DbSession(Context ctx, string name) : IAsyncDisposable
{
    public int Queries;
    public async Task<string> Query(string sql)
    {
        Queries++;
        await Task.Delay(TimeSpan.FromMilliseconds(5), ctx.Time);
        return $"{name}:{sql}@{ctx.Time.GetUtcNow():HH:mm:ss.fff}";
    }
    public async ValueTask DisposeAsync()
    {
        await Task.Yield();
        ctx.Log.Add($"dispose {name} after {Queries} queries (scope {Ambient.Scope.Value})");
    }
}

sealed class AuditSink(Context ctx) : IAsyncDisposable
{
    public readonly List<string> Entries = new();
    public async ValueTask DisposeAsync()
    {
        await Task.Delay(TimeSpan.FromMilliseconds(1), ctx.Time);
        ctx.Log.Add($"audit flushed {Entries.Count}: {string.Join(";", Entries)}");
    }
}

static class App
{
    static readonly Dictionary<string, Func<Context, Task>> Endpoints = new()
    {
        ["/users"] = async ctx =>
        {
            var db = ctx.Service(() => new DbSession(ctx, "db"));
            var a = await db.Query("select users");
            ctx.Service(() => new AuditSink(ctx)).Entries.Add("read users");
            ctx.Body = $"{a} tenant={Ambient.Tenant.Value}";
        },
        ["/flaky"] = async ctx =>
        {
            var db = ctx.Service(() => new DbSession(ctx, "db"));
            await db.Query($"attempt {ctx.Attempts}");
            if (ctx.Attempts < 3) throw new TransientException($"flake #{ctx.Attempts}");
            ctx.Body = $"ok after {ctx.Attempts} at {ctx.Time.GetUtcNow():ss.fff}";
        },
        ["/always-flaky"] = async ctx =>
        {
            await Task.Delay(TimeSpan.FromMilliseconds(2), ctx.Time);
            throw new TransientException("still down");
        },
        ["/admin"] = ctx => Ambient.Tenant.Value == "root" ? Task.CompletedTask : Task.FromException(new ForbiddenException()),
        ["/slow"] = async ctx =>
        {
            await Task.Delay(TimeSpan.FromSeconds(10), ctx.Time, ctx.Aborted);
            ctx.Body = "finished slow";
        },
        ["/crash"] = async ctx =>
        {
            ctx.Service(() => new AuditSink(ctx)).Entries.Add("about to crash");
            await Task.Yield();
            int[] data = [1, 2, 3];
            ctx.Body = data[ctx.Path.Length].ToString();
        },
    };

    public static Func<Context, Task> Build()
    {
        var middlewares = new List<Func<Context, Func<Task>, Task>>
        {
            // scope + disposal
            async (ctx, next) =>
            {
                Ambient.Scope.Value = $"req{ctx.Id}";
                try { await next(); }
                finally
                {
                    for (int i = ctx.Scoped.Count - 1; i >= 0; i--)
                        await using (ctx.Scoped[i]) { }
                    ctx.Log.Add($"scope end, tenant seen by outer = {Ambient.Tenant.Value ?? "none"}");
                }
            },
            // exception handling
            async (ctx, next) =>
            {
                try { await next(); }
                catch (Exception e) when (e is not OperationCanceledException || ctx.Aborted.IsCancellationRequested)
                {
                    ctx.Status = e switch
                    {
                        ForbiddenException => 403,
                        TransientException => 503,
                        OperationCanceledException => 504,
                        IndexOutOfRangeException => 500,
                        _ => 599,
                    };
                    ctx.Body = $"{e.GetType().Name}: {e.Message}";
                }
            },
            // tenant: a non-async middleware, so its AsyncLocal change is seen by the callers
            (ctx, next) =>
            {
                Ambient.Tenant.Value = ctx.Path.StartsWith("/admin") && ctx.Id % 2 == 0 ? "root" : $"t{ctx.Id % 3}";
                return next();
            },
            // timeout
            async (ctx, next) =>
            {
                using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(1), ctx.Time);
                ctx.Aborted = cts.Token;
                await next();
            },
            // retry with exponential back-off
            async (ctx, next) =>
            {
                var delay = TimeSpan.FromMilliseconds(100);
                for (ctx.Attempts = 1; ; ctx.Attempts++)
                {
                    try
                    {
                        await next();
                        return;
                    }
                    catch (TransientException e) when (ctx.Attempts < 4)
                    {
                        ctx.Log.Add($"retry {ctx.Attempts} after {e.Message}, waiting {delay.TotalMilliseconds}ms");
                    }
                    await Task.Delay(delay, ctx.Time);
                    delay *= 2;
                }
            },
        };
        Func<Context, Task> app = async ctx =>
        {
            if (!Endpoints.TryGetValue(ctx.Path, out var endpoint)) { ctx.Status = 404; return; }
            await endpoint(ctx);
        };
        for (int i = middlewares.Count - 1; i >= 0; i--)
        {
            var mw = middlewares[i];
            var next = app;
            app = ctx => mw(ctx, () => next(ctx));
        }
        return app;
    }
}

static class Program
{
    static async Task<string> Handle(Func<Context, Task> app, Context ctx)
    {
        Ambient.Tenant.Value = "outer";
        await app(ctx);
        return $"#{ctx.Id} {ctx.Path} -> {ctx.Status} '{ctx.Body}' tenant-after={Ambient.Tenant.Value} scope-after={Ambient.Scope.Value ?? "none"}\n    " +
            string.Join("\n    ", ctx.Log);
    }

    static async Task Drive(FakeTime time, Task all)
    {
        int steps = 0;
        while (!all.IsCompleted)
        {
            for (int i = 0; i < 5; i++) await Task.Yield(); // let the loop run everything that is ready
            if (all.IsCompleted) break;
            if (!time.AdvanceToNext()) { await Task.Yield(); continue; }
            steps++;
        }
        Console.WriteLine($"driver: {steps} steps, now {time.GetUtcNow():HH:mm:ss.fff}, timers left {time.Pending}");
    }

    static async Task Main()
    {
        string[] paths = ["/users", "/flaky", "/admin", "/admin", "/always-flaky", "/slow", "/crash", "/missing"];
        foreach (var concurrent in new[] { false, true })
        {
            Console.WriteLine($"-- concurrent={concurrent}");
            var loop = new SingleThreadLoop("http");
            loop.RunUntilComplete(async () =>
            {
                var time = new FakeTime();
                var app = App.Build();
                if (concurrent)
                {
                    var tasks = paths.Select((p, i) => Handle(app, new Context(i + 1, p, time))).ToArray();
                    await Drive(time, Task.WhenAll(tasks));
                    foreach (var t in tasks) Console.WriteLine(await t);
                }
                else
                {
                    for (int i = 0; i < paths.Length; i++)
                    {
                        var task = Handle(app, new Context(i + 1, paths[i], time));
                        await Drive(time, task);
                        Console.WriteLine(await task);
                    }
                }
                Console.WriteLine($"on loop: {loop.IsCurrent}, tenant in driver: {Ambient.Tenant.Value ?? "none"}");
            });
            loop.Stop();
        }
    }
}
