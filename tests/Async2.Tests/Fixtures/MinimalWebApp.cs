// Fixture: a minimal ASP.NET Core app (VerifyTests). It serves on a free loopback port, requests its
// own endpoints with HttpClient (through a middleware and a DI service with awaits of its own, and
// one endpoint that throws after an await: Kestrel answers 500 and drops the headers set so far),
// prints each answer and stops; exit code 0.
using System;
using System.Linq;
using System.Net.Http;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

static class Program
{
    static async Task<int> Main(string[] args)
    {
        var builder = WebApplication.CreateBuilder(args);
        builder.Logging.ClearProviders();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Services.AddSingleton<Prices>();
        var app = builder.Build();
        app.Use(async (HttpContext context, RequestDelegate next) =>
        {
            await Task.Yield();
            context.Response.Headers["X-Served-By"] = "minimal";
            await next(context);
        });
        app.MapGet("/quote/{id:int}", async (int id, Prices prices) => await prices.QuoteAsync(id));
        app.MapGet("/fail", async () =>
        {
            await Task.Yield();
            throw new InvalidOperationException("the endpoint failed after an await");
        });

        await app.StartAsync();
        using var client = new HttpClient { BaseAddress = new Uri(app.Urls.First()) };
        foreach (var path in new[] { "/quote/7", "/quote/21", "/fail" })
        {
            using var response = await client.GetAsync(path);
            var servedBy = string.Join(",", response.Headers.TryGetValues("X-Served-By", out var values) ? values : []);
            Console.WriteLine($"{path}: {(int)response.StatusCode} [{servedBy}] '{await response.Content.ReadAsStringAsync()}'");
        }
        await app.StopAsync();
        return 0;
    }
}

sealed class Prices
{
    public async Task<string> QuoteAsync(int id)
    {
        var unit = await UnitPriceAsync(id);
        await Task.Delay(1);
        return $"{id} x {unit} = {id * unit}";
    }

    static async Task<decimal> UnitPriceAsync(int id)
    {
        await Task.Yield();
        return 1.5m + id % 3;
    }
}
