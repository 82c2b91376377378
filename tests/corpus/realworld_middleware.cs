// Real-world: an in-memory "HTTP-like" request pipeline built from middleware delegates
// (Func<HttpContext, Func<Task>, Task>) composed in reverse like ASP.NET's app.Use: timing-free
// logging with try/finally around `await next()`, an exception-handling middleware that maps
// exceptions to status codes with a switch expression, authentication short-circuiting,
// a response-caching middleware keyed by path, and endpoint handlers selected by a switch
// expression over (method, path segments) with awaited values inside string interpolation.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

sealed class HttpContext(string method, string path, string? user)
{
    public string Method { get; } = method;
    public string Path { get; } = path;
    public string? User { get; } = user;
    public int Status { get; set; } = 200;
    public StringBuilder Body { get; } = new();
    public Dictionary<string, string> Headers { get; } = new();
    public List<string> Trace { get; } = new();
}

sealed class NotFoundException(string what) : Exception(what);

sealed class PipelineBuilder
{
    private readonly List<Func<HttpContext, Func<Task>, Task>> middlewares = new();

    public PipelineBuilder Use(Func<HttpContext, Func<Task>, Task> middleware)
    {
        middlewares.Add(middleware);
        return this;
    }

    public Func<HttpContext, Task> Build(Func<HttpContext, Task> endpoint)
    {
        Func<HttpContext, Task> app = endpoint;
        for (int i = middlewares.Count - 1; i >= 0; i--)
        {
            var middleware = middlewares[i];
            var next = app;
            app = context => middleware(context, () => next(context));
        }
        return app;
    }
}

static class Store
{
    public static bool Suspend;
    private static readonly Dictionary<int, (string Name, decimal Price)> s_products = new()
    {
        [1] = ("kettle", 25m), [2] = ("toaster", 40m), [3] = ("mug", 4.5m),
    };
    public static int Queries;

    public static async Task<(string Name, decimal Price)> Find(int id)
    {
        Interlocked.Increment(ref Queries);
        if (Suspend) await Task.Delay(1);
        return s_products.TryGetValue(id, out var p) ? p : throw new NotFoundException($"product {id}");
    }

    public static async Task<int> Count()
    {
        if (Suspend) await Task.Yield();
        return s_products.Count;
    }
}

static class Program
{
    static readonly System.Collections.Concurrent.ConcurrentDictionary<string, (int Status, string Body)> s_cache = new();

    static async Task Endpoint(HttpContext ctx)
    {
        var segments = ctx.Path.Split('/', StringSplitOptions.RemoveEmptyEntries);
        string body = (ctx.Method, segments) switch
        {
            ("GET", ["products"]) => $"{await Store.Count()} products",
            ("GET", ["products", var id]) when int.TryParse(id, out var n) =>
                await Store.Find(n) is var (name, price) ? $"{name}: {price:0.00}" : "",
            ("GET", ["products", _]) => throw new ArgumentException("bad id"),
            ("POST", ["products"]) => throw new UnauthorizedAccessException("read-only store"),
            ("GET", ["crash"]) => throw new InvalidOperationException("boom"),
            _ => throw new NotFoundException(ctx.Path),
        };
        if (Store.Suspend) await Task.Yield();
        ctx.Body.Append(body);
    }

    static Func<HttpContext, Task> BuildApp() => new PipelineBuilder()
        .Use(async (ctx, next) =>
        {
            ctx.Trace.Add("log>");
            try { await next(); }
            finally { ctx.Trace.Add($"<log {ctx.Status}"); }
        })
        .Use(async (ctx, next) =>
        {
            try
            {
                await next();
            }
            catch (Exception e)
            {
                ctx.Status = e switch
                {
                    NotFoundException => 404,
                    ArgumentException => 400,
                    UnauthorizedAccessException => 403,
                    _ => 500,
                };
                if (Store.Suspend) await Task.Yield();
                ctx.Body.Clear().Append(ctx.Status == 500 ? "internal error" : e.Message);
            }
        })
        .Use(async (ctx, next) =>
        {
            if (ctx.User is null && ctx.Method != "GET")
            {
                ctx.Status = 401;
                ctx.Body.Append("login required");
                return;
            }
            await next();
        })
        .Use(async (ctx, next) =>
        {
            string key = ctx.Method + " " + ctx.Path;
            if (ctx.Method == "GET" && s_cache.TryGetValue(key, out var hit))
            {
                (ctx.Status, string body) = hit;
                ctx.Body.Append(body);
                ctx.Headers["X-Cache"] = "hit";
                return;
            }
            await next();
            if (ctx.Status == 200) s_cache[key] = (ctx.Status, ctx.Body.ToString());
            ctx.Headers["X-Cache"] = "miss";
        })
        .Build(Endpoint);

    static async Task Main()
    {
        var requests = new (string Method, string Path, string? User)[]
        {
            ("GET", "/products", null), ("GET", "/products/2", null), ("GET", "/products/2", null),
            ("GET", "/products/9", null), ("GET", "/products/abc", null), ("POST", "/products", null),
            ("POST", "/products", "ann"), ("GET", "/crash", "ann"), ("DELETE", "/", "ann"), ("GET", "/products/3", "bob"),
        };
        foreach (var suspend in new[] { false, true })
        {
            Store.Suspend = suspend;
            Store.Queries = 0;
            s_cache.Clear();
            Console.WriteLine($"-- suspend={suspend}");
            var app = BuildApp();
            foreach (var (method, path, user) in requests)
            {
                var ctx = new HttpContext(method, path, user);
                await app(ctx);
                var headers = string.Join(",", ctx.Headers.OrderBy(h => h.Key).Select(h => $"{h.Key}={h.Value}"));
                Console.WriteLine($"{method,-6} {path,-15} {ctx.Status} '{ctx.Body}' [{headers}] {string.Join(" ", ctx.Trace)}");
            }
            Console.WriteLine($"queries: {Store.Queries}");

            var parallel = await Task.WhenAll(Enumerable.Range(1, 3).Select(async i =>
            {
                var ctx = new HttpContext("GET", $"/products/{i}", "p");
                await Task.Run(() => app(ctx));
                return $"{i}:{ctx.Status}:{ctx.Body}";
            }));
            Console.WriteLine("parallel: " + string.Join(" | ", parallel));
        }
    }
}
