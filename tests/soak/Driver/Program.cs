// The soak's load driver: starts one build of the sample service, sends it a deterministic request
// sequence from many concurrent clients, stops and restarts PostgreSQL mid-run, and writes what the
// build answered and stored so that tests/soak.sh can compare the classic and the Async2 build.
// See tests/soak/README.md for the contract it checks.
using System.CommandLine;
using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Npgsql;

namespace Soak.Driver;

internal static class Program
{
    private static async Task<int> Main(string[] args)
    {
        var parsed = Options.Command.Parse(args);
        if (parsed.Errors.Count > 0)
        {
            foreach (var error in parsed.Errors)
                Console.Error.WriteLine($"soak driver: {error.Message}");
            Console.Error.WriteLine("soak driver: see --help");
            return 2;
        }
        if (parsed.Action is not null)
            return parsed.Invoke(); // --help
        var options = Options.From(parsed);
        Directory.CreateDirectory(options.Out);
        var run = new SoakRun(options);
        try
        {
            return await run.RunAsync();
        }
        catch (Exception ex)
        {
            Console.Error.WriteLine($"soak driver: the run broke off: {ex}");
            return 1;
        }
        finally
        {
            run.Dispose();
        }
    }
}

internal sealed record Options(
    string Service, string Db, int Port, string Out, int Clients, double? Seconds, string? Plan, int WarmupRounds,
    double OutageAt, double OutageSeconds, string? DbStopCommand, string? DbStartCommand, double HeapBoundMb,
    double RssBoundMb, double TimeLimitSeconds, bool? ExpectAsync2)
{
    private static readonly Option<string> s_service = new("--service") { Description = "the SoakService.dll to start", Required = true };
    private static readonly Option<string> s_db = new("--db") { Description = "its database's connection string", Required = true };
    private static readonly Option<int> s_port = new("--port") { Description = "the port it listens on, on 127.0.0.1", Required = true };
    private static readonly Option<string> s_out = new("--out") { Description = "where the transcript, database dump and summary go", Required = true };
    private static readonly Option<double?> s_seconds = new("--seconds") { Description = "run the main phase for about this long and write the rounds done to <out>/plan.txt" };
    private static readonly Option<string?> s_plan = new("--plan") { Description = "replay exactly the rounds (and the outage point) of an earlier run's plan.txt" };
    private static readonly Option<int> s_clients = new("--clients") { Description = "concurrent clients", DefaultValueFactory = _ => 16 };
    private static readonly Option<int> s_warmupRounds = new("--warmup-rounds") { Description = "rounds before the memory baseline", DefaultValueFactory = _ => 5 };
    private static readonly Option<double> s_outageAt = new("--outage-at") { Description = "when the database stops, as a share of the main phase", DefaultValueFactory = _ => 0.4 };
    private static readonly Option<double> s_outageSeconds = new("--outage-seconds") { Description = "how long it stays down", DefaultValueFactory = _ => 2 };
    private static readonly Option<string?> s_dbStop = new("--db-stop-cmd") { Description = "shell command stopping the database" };
    private static readonly Option<string?> s_dbStart = new("--db-start-cmd") { Description = "shell command starting it again" };
    private static readonly Option<double> s_heapBound = new("--heap-bound-mb") { Description = "allowed managed heap growth from warm-up to the end", DefaultValueFactory = _ => 16 };
    private static readonly Option<double> s_rssBound = new("--rss-bound-mb") { Description = "allowed resident set growth from warm-up to the end", DefaultValueFactory = _ => 64 };
    private static readonly Option<double> s_timeLimit = new("--time-limit") { Description = "seconds after which the run is abandoned", DefaultValueFactory = _ => 900 };
    private static readonly Option<string?> s_expectAsync2 = new("--expect-async2") { Description = "whether the service must report Async2 suspensions (yes) or none (no)" };

    /// <summary>The driver's command line; one of --seconds and --plan is required.</summary>
    public static readonly RootCommand Command = BuildCommand();

    private static RootCommand BuildCommand()
    {
        s_expectAsync2.AcceptOnlyFromAmong("yes", "no");
        var command = new RootCommand("Drives one build of the soak service and records what it answered and stored (tests/soak/README.md).")
        {
            s_service, s_db, s_port, s_out, s_seconds, s_plan, s_clients, s_warmupRounds, s_outageAt, s_outageSeconds,
            s_dbStop, s_dbStart, s_heapBound, s_rssBound, s_timeLimit, s_expectAsync2,
        };
        command.Validators.Add(result =>
        {
            if ((result.GetValue(s_seconds) is null) == (result.GetValue(s_plan) is null))
                result.AddError("give exactly one of --seconds and --plan");
        });
        return command;
    }

    public static Options From(ParseResult parsed) => new(
        parsed.GetValue(s_service)!, parsed.GetValue(s_db)!, parsed.GetValue(s_port), parsed.GetValue(s_out)!,
        parsed.GetValue(s_clients), parsed.GetValue(s_seconds), parsed.GetValue(s_plan), parsed.GetValue(s_warmupRounds),
        parsed.GetValue(s_outageAt), parsed.GetValue(s_outageSeconds), parsed.GetValue(s_dbStop), parsed.GetValue(s_dbStart),
        parsed.GetValue(s_heapBound), parsed.GetValue(s_rssBound), parsed.GetValue(s_timeLimit),
        parsed.GetValue(s_expectAsync2) switch { "yes" => true, "no" => false, _ => null });
}

/// <summary>One request of a client's script and the status the contract expects for it.</summary>
internal sealed record Step(string Method, string Path, string? Body, HttpStatusCode Expected, long? AckOrder, long? AckEvent);

internal sealed class SoakRun(Options options) : IDisposable
{
    private readonly HttpClient http = new(new SocketsHttpHandler { MaxConnectionsPerServer = int.MaxValue })
    {
        BaseAddress = new Uri($"http://127.0.0.1:{options.Port}"),
        // Longer than the service's retry budget: the service, not the client, rides out the outage.
        Timeout = TimeSpan.FromSeconds(120),
    };
    private readonly Stopwatch clock = Stopwatch.StartNew();
    private Process? service;
    private StreamWriter? serviceLog;
    private long completed;
    private long errors;
    private long maxLatencyTicks;
    private readonly List<string> errorSamples = [];
    private readonly List<(double T, long Heap, long Rss)> samples = [];
    private double outageStart = double.NaN, outageEnd = double.NaN, firstAfterOutage = double.NaN;
    private long outageAfterRequests = -1;

    public async Task<int> RunAsync()
    {
        var plan = options.Plan is { } planFile ? RunPlan.Read(planFile) : null;
        var clients = plan?.Rounds.Length ?? options.Clients;
        var transcripts = Enumerable.Range(0, clients).Select(_ => new List<string>()).ToArray();
        var ackedOrders = new System.Collections.Concurrent.ConcurrentDictionary<long, long>();
        var ackedEvents = new System.Collections.Concurrent.ConcurrentDictionary<long, bool>();
        var roundsDone = new int[clients];

        StartService();
        await WaitForServiceAsync();
        using var limit = new CancellationTokenSource(TimeSpan.FromSeconds(options.TimeLimitSeconds));

        async Task RunClientAsync(int c, Func<int, bool> more)
        {
            for (var r = roundsDone[c]; more(r); r++)
            {
                foreach (var (step, index) in Script.Round(c, r).Select((s, i) => (s, i)))
                    transcripts[c].Add(await SendAsync(c, r, index, step, ackedOrders, ackedEvents, limit.Token));
                roundsDone[c] = r + 1;
            }
        }

        // Warm-up: the JIT, the connection pool and the caches settle before the baseline is taken.
        await Task.WhenAll(Enumerable.Range(0, clients).Select(c => Task.Run(() => RunClientAsync(c, r => r < options.WarmupRounds))));
        var warm = await CollectAsync();
        var warmRss = ReadRss();
        Console.WriteLine($"warm-up: {completed} requests, heap after full GC {F(Mb(warm.HeapBytes))} MB, RSS {F(Mb(warmRss))} MB");

        using var sampling = new CancellationTokenSource();
        var sampler = SampleAsync(sampling.Token);
        var mainStart = clock.Elapsed.TotalSeconds;
        var requestsBefore = Interlocked.Read(ref completed);
        Func<int, int, bool> more = plan is null
            ? (_, _) => clock.Elapsed.TotalSeconds - mainStart < options.Seconds!.Value
            : (c, r) => r < plan.Rounds[c];
        var outage = OutageAsync(plan, mainStart, limit.Token);
        await Task.WhenAll(Enumerable.Range(0, clients).Select(c => Task.Run(() => RunClientAsync(c, r => more(c, r)))));
        var mainSeconds = clock.Elapsed.TotalSeconds - mainStart;
        await outage;

        var drain = await PostJsonAsync("/admin/drain");
        var end = await CollectAsync();
        var endRss = ReadRss();
        var peakRss = Math.Max(ReadRss("VmHWM:"), samples.Count == 0 ? 0 : samples.Max(s => s.Rss));
        sampling.Cancel();
        await sampler;
        await StopServiceAsync();

        var missing = await CheckAcknowledgedAsync(ackedOrders, ackedEvents);
        await DumpDatabaseAsync(Path.Combine(options.Out, "db.txt"));
        await File.WriteAllLinesAsync(Path.Combine(options.Out, "transcript.txt"), transcripts.SelectMany(t => t));
        await File.WriteAllLinesAsync(Path.Combine(options.Out, "memory.csv"),
            ["seconds,heap_bytes,rss_bytes", .. samples.Select(s => FormattableString.Invariant($"{s.T:F1},{s.Heap},{s.Rss}"))]);
        if (plan is null)
            new RunPlan(roundsDone, outageAfterRequests).Write(Path.Combine(options.Out, "plan.txt"));

        var mainRequests = Interlocked.Read(ref completed) - requestsBefore;
        var heapGrowth = Mb(end.HeapBytes - warm.HeapBytes);
        var rssGrowth = Mb(endRss - warmRss);
        var failures = new List<string>();
        if (errors > 0)
            failures.Add($"{errors} response(s) not as the contract says, e.g.:\n  " + string.Join("\n  ", errorSamples));
        if (missing.Count > 0)
            failures.Add($"{missing.Count} acknowledged write(s) not in the database, e.g. {string.Join(", ", missing.Take(5))}");
        if (drain.GetProperty("enqueued").GetInt64() != drain.GetProperty("persisted").GetInt64())
            failures.Add($"the event worker did not drain: {drain}");
        if (heapGrowth > options.HeapBoundMb)
            failures.Add($"managed heap after full GC grew {heapGrowth:F1} MB from warm-up to end (bound {options.HeapBoundMb} MB)");
        if (rssGrowth > options.RssBoundMb)
            failures.Add($"RSS grew {rssGrowth:F1} MB from warm-up to end (bound {options.RssBoundMb} MB)");
        if (options.ExpectAsync2 == true && end.Suspensions == 0)
            failures.Add("Async2's meter counted no suspension: the service did not run rewritten code");
        if (options.ExpectAsync2 == false && end.Suspensions != 0)
            failures.Add($"Async2's meter counted {end.Suspensions} suspensions in a build meant to be classic");
        if (options.DbStopCommand is not null && double.IsNaN(firstAfterOutage))
            failures.Add("no request completed after the database came back");

        var summary = new Dictionary<string, string>
        {
            ["requests"] = Interlocked.Read(ref completed).ToString(CultureInfo.InvariantCulture),
            ["main_requests"] = mainRequests.ToString(CultureInfo.InvariantCulture),
            ["main_seconds"] = F(mainSeconds),
            ["req_per_s"] = F(mainRequests / mainSeconds),
            ["errors"] = errors.ToString(CultureInfo.InvariantCulture),
            ["missing_acks"] = missing.Count.ToString(CultureInfo.InvariantCulture),
            ["acked_orders"] = ackedOrders.Count.ToString(CultureInfo.InvariantCulture),
            ["acked_events"] = ackedEvents.Count.ToString(CultureInfo.InvariantCulture),
            ["heap_warm_mb"] = F(Mb(warm.HeapBytes)),
            ["heap_end_mb"] = F(Mb(end.HeapBytes)),
            ["rss_warm_mb"] = F(Mb(warmRss)),
            ["rss_peak_mb"] = F(Mb(peakRss)),
            ["rss_end_mb"] = F(Mb(endRss)),
            ["db_retries"] = end.Retries.ToString(CultureInfo.InvariantCulture),
            ["async2_suspensions"] = end.Suspensions.ToString(CultureInfo.InvariantCulture),
            ["async2_resumptions"] = end.Resumptions.ToString(CultureInfo.InvariantCulture),
            ["outage_s"] = F(outageEnd - outageStart),
            ["recovery_s"] = F(firstAfterOutage - outageEnd),
            ["max_latency_s"] = F(TimeSpan.FromTicks(maxLatencyTicks).TotalSeconds),
            ["result"] = failures.Count == 0 ? "pass" : "FAIL",
        };
        await File.WriteAllLinesAsync(Path.Combine(options.Out, "summary.txt"), summary.Select(kv => $"{kv.Key}={kv.Value}"));
        Console.WriteLine(string.Join(" ", summary.Select(kv => $"{kv.Key}={kv.Value}")));
        foreach (var failure in failures)
            Console.Error.WriteLine($"soak driver: FAIL: {failure}");
        return failures.Count == 0 ? 0 : 1;
    }

    private static double Mb(long bytes) => bytes / (1024.0 * 1024.0);
    private static string F(double value) => double.IsNaN(value) ? "-" : value.ToString("F2", CultureInfo.InvariantCulture);

    private async Task<string> SendAsync(int c, int r, int index, Step step,
        System.Collections.Concurrent.ConcurrentDictionary<long, long> ackedOrders,
        System.Collections.Concurrent.ConcurrentDictionary<long, bool> ackedEvents, CancellationToken ct)
    {
        using var request = new HttpRequestMessage(new HttpMethod(step.Method), step.Path);
        if (step.Body is not null)
            request.Content = new StringContent(step.Body, Encoding.UTF8, "application/json");
        var started = clock.Elapsed;
        string status, body;
        try
        {
            using var response = await http.SendAsync(request, ct);
            body = await response.Content.ReadAsStringAsync(ct);
            status = ((int)response.StatusCode).ToString(CultureInfo.InvariantCulture);
            if (response.StatusCode == step.Expected)
            {
                if (step.AckOrder is { } order)
                    ackedOrders[order] = JsonDocument.Parse(body).RootElement.GetProperty("totalCents").GetInt64();
                if (step.AckEvent is { } e)
                    ackedEvents[e] = true;
                var now = clock.Elapsed.TotalSeconds;
                if (!double.IsNaN(Volatile.Read(ref outageEnd)) && double.IsNaN(firstAfterOutage))
                    firstAfterOutage = now;
            }
            else
            {
                Fail($"{step.Method} {step.Path}: {status} (expected {(int)step.Expected}) {Truncate(body)}");
            }
        }
        catch (Exception ex) when (!ct.IsCancellationRequested)
        {
            // A transport failure is an error response too: the contract has the client never retry.
            status = "exception";
            body = ex.GetType().Name;
            Fail($"{step.Method} {step.Path}: {ex.GetType().Name}: {ex.Message}");
        }
        var latency = (clock.Elapsed - started).Ticks;
        long seen;
        while (latency > (seen = Interlocked.Read(ref maxLatencyTicks)) && Interlocked.CompareExchange(ref maxLatencyTicks, latency, seen) != seen) { }
        Interlocked.Increment(ref completed);
        return $"{c} {r} {index} {step.Method} {step.Path} {status} {body}";
    }

    private static string Truncate(string text) => text.Length <= 200 ? text : text[..200] + "...";

    private void Fail(string message)
    {
        Interlocked.Increment(ref errors);
        lock (errorSamples)
        {
            if (errorSamples.Count < 10)
                errorSamples.Add(message);
        }
    }

    private async Task OutageAsync(RunPlan? plan, double mainStart, CancellationToken ct)
    {
        if (options.DbStopCommand is null || options.DbStartCommand is null)
            return;
        if (plan is null)
        {
            var at = mainStart + options.OutageAt * options.Seconds!.Value;
            var wait = at - clock.Elapsed.TotalSeconds;
            if (wait > 0)
                await Task.Delay(TimeSpan.FromSeconds(wait), ct);
            outageAfterRequests = Interlocked.Read(ref completed);
        }
        else
        {
            // The replay stops the server after as many requests as the recorded run did.
            outageAfterRequests = plan.OutageAfterRequests;
            while (Interlocked.Read(ref completed) < outageAfterRequests)
                await Task.Delay(5, ct);
        }
        outageStart = clock.Elapsed.TotalSeconds;
        await ShellAsync(options.DbStopCommand);
        Console.WriteLine($"database stopped at {outageStart - mainStart:F1} s into the main phase, after {outageAfterRequests} requests");
        await Task.Delay(TimeSpan.FromSeconds(options.OutageSeconds), ct);
        await ShellAsync(options.DbStartCommand);
        Volatile.Write(ref outageEnd, clock.Elapsed.TotalSeconds);
        Console.WriteLine($"database accepting again after {outageEnd - outageStart:F1} s");
    }

    private static async Task ShellAsync(string command)
    {
        using var process = Process.Start(new ProcessStartInfo("/bin/sh", ["-c", command]) { RedirectStandardOutput = true })!;
        await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        if (process.ExitCode != 0)
            throw new InvalidOperationException($"'{command}' exited with {process.ExitCode}");
    }

    private async Task SampleAsync(CancellationToken ct)
    {
        try
        {
            while (!ct.IsCancellationRequested)
            {
                var memory = await GetJsonAsync("/admin/memory", ct);
                lock (samples)
                    samples.Add((clock.Elapsed.TotalSeconds, memory.GetProperty("heapBytes").GetInt64(), ReadRss()));
                await Task.Delay(1000, ct);
            }
        }
        catch (OperationCanceledException) when (ct.IsCancellationRequested)
        {
        }
    }

    private sealed record Collected(long HeapBytes, long Retries, long Suspensions, long Resumptions);

    private async Task<Collected> CollectAsync()
    {
        var report = await PostJsonAsync("/admin/gc");
        return new Collected(report.GetProperty("heapBytes").GetInt64(), report.GetProperty("retries").GetInt64(),
            report.GetProperty("async2Suspensions").GetInt64(), report.GetProperty("async2Resumptions").GetInt64());
    }

    private async Task<JsonElement> GetJsonAsync(string path, CancellationToken ct = default)
    {
        using var response = await http.GetAsync(path, ct);
        response.EnsureSuccessStatusCode();
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync(ct)).RootElement.Clone();
    }

    private async Task<JsonElement> PostJsonAsync(string path)
    {
        using var response = await http.PostAsync(path, null);
        response.EnsureSuccessStatusCode();
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.Clone();
    }

    private long ReadRss(string field = "VmRSS:")
    {
        // /proc/<pid>/status gives kB; the process is the service itself (dotnet runs it in-process).
        foreach (var line in File.ReadLines($"/proc/{service!.Id}/status"))
        {
            if (line.StartsWith(field, StringComparison.Ordinal))
                return long.Parse(line[field.Length..].Trim().Split(' ')[0], CultureInfo.InvariantCulture) * 1024;
        }
        throw new InvalidOperationException($"no {field} in /proc/{service.Id}/status");
    }

    private void StartService()
    {
        var start = new ProcessStartInfo("dotnet",
            [options.Service, "--urls", $"http://127.0.0.1:{options.Port}", $"--ConnectionStrings:Orders={options.Db}"])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        serviceLog = new StreamWriter(Path.Combine(options.Out, "service.log")) { AutoFlush = true };
        service = Process.Start(start)!;
        service.OutputDataReceived += (_, e) => { if (e.Data is not null) lock (serviceLog) serviceLog.WriteLine(e.Data); };
        service.ErrorDataReceived += (_, e) => { if (e.Data is not null) lock (serviceLog) serviceLog.WriteLine(e.Data); };
        service.BeginOutputReadLine();
        service.BeginErrorReadLine();
    }

    private async Task WaitForServiceAsync()
    {
        for (var i = 0; i < 600; i++)
        {
            if (service!.HasExited)
                throw new InvalidOperationException($"the service exited with {service.ExitCode} before it answered; see {options.Out}/service.log");
            try
            {
                await GetJsonAsync("/admin/memory");
                return;
            }
            catch (HttpRequestException)
            {
                await Task.Delay(100);
            }
        }
        throw new TimeoutException("the service did not answer within 60 s");
    }

    private async Task StopServiceAsync()
    {
        await PostJsonAsync("/admin/shutdown").ContinueWith(_ => { });
        using var wait = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await service!.WaitForExitAsync(wait.Token);
        if (service.ExitCode != 0)
            throw new InvalidOperationException($"the service exited with {service.ExitCode}; see {options.Out}/service.log");
    }

    private async Task<List<string>> CheckAcknowledgedAsync(
        System.Collections.Concurrent.ConcurrentDictionary<long, long> ackedOrders,
        System.Collections.Concurrent.ConcurrentDictionary<long, bool> ackedEvents)
    {
        await using var connection = new NpgsqlConnection(options.Db);
        await connection.OpenAsync();
        var orders = new Dictionary<long, long>();
        await using (var command = new NpgsqlCommand("SELECT id, total_cents FROM orders", connection))
        await using (var reader = await command.ExecuteReaderAsync())
        {
            while (await reader.ReadAsync())
                orders[reader.GetInt64(0)] = reader.GetInt64(1);
        }
        var events = new HashSet<long>();
        await using (var command = new NpgsqlCommand("SELECT event_id FROM order_events", connection))
        await using (var reader = await command.ExecuteReaderAsync())
        {
            while (await reader.ReadAsync())
                events.Add(reader.GetInt64(0));
        }
        var missing = ackedOrders.Where(kv => !orders.TryGetValue(kv.Key, out var total) || total != kv.Value)
            .Select(kv => $"order {kv.Key}").ToList();
        missing.AddRange(ackedEvents.Keys.Where(e => !events.Contains(e)).Select(e => $"event {e}"));
        return missing;
    }

    private async Task DumpDatabaseAsync(string path)
    {
        await using var connection = new NpgsqlConnection(options.Db);
        await connection.OpenAsync();
        await using var output = new StreamWriter(path);
        foreach (var (table, query) in new[]
        {
            ("orders", "SELECT id, customer, total_cents, status, event_count FROM orders ORDER BY id"),
            ("order_lines", "SELECT order_id, line, sku, quantity, price_cents FROM order_lines ORDER BY order_id, line"),
            ("order_events", "SELECT event_id, order_id, kind FROM order_events ORDER BY event_id"),
        })
        {
            await output.WriteLineAsync($"# {table}");
            await using var command = new NpgsqlCommand(query, connection);
            await using var reader = await command.ExecuteReaderAsync();
            var fields = new object[reader.FieldCount];
            while (await reader.ReadAsync())
            {
                reader.GetValues(fields);
                await output.WriteLineAsync(string.Join('\t', fields.Select(f => Convert.ToString(f, CultureInfo.InvariantCulture))));
            }
        }
    }

    public void Dispose()
    {
        if (service is { HasExited: false })
            service.Kill(entireProcessTree: true);
        service?.Dispose();
        serviceLog?.Dispose();
        http.Dispose();
    }
}

/// <summary>The rounds each client ran and the request count at which the database was stopped.</summary>
internal sealed record RunPlan(int[] Rounds, long OutageAfterRequests)
{
    public void Write(string path) => File.WriteAllLines(path,
        [$"rounds {string.Join(' ', Rounds)}", $"outage-after {OutageAfterRequests}"]);

    public static RunPlan Read(string path)
    {
        var lines = File.ReadAllLines(path).Select(l => l.Split(' ')).ToDictionary(p => p[0], p => p[1..]);
        return new RunPlan(lines["rounds"].Select(int.Parse).ToArray(), long.Parse(lines["outage-after"][0], CultureInfo.InvariantCulture));
    }
}

/// <summary>
/// Each client owns its customers and sends its rounds one request at a time, so every answer it
/// gets (summaries and lists included) depends only on its own earlier requests, whatever the
/// interleaving with the other clients.
/// </summary>
internal static class Script
{
    public static IEnumerable<Step> Round(int c, int r)
    {
        var id = (c + 1) * 1_000_000L + r;
        var customer = $"c{c}-{"abc"[r % 3]}";
        var order = OrderBody(id, customer, c, r);
        yield return new Step("POST", "/orders", order, HttpStatusCode.Created, id, null);
        yield return new Step("GET", $"/orders/{id}", null, HttpStatusCode.OK, null, null);
        yield return Event(id, id * 10 + 1, "paid");
        if (r % 2 == 0)
            yield return new Step("GET", $"/customers/{customer}/summary", null, HttpStatusCode.OK, null, null);
        if (r % 3 == 0)
            yield return new Step("GET", $"/customers/{customer}/orders?limit=3", null, HttpStatusCode.OK, null, null);
        if (r % 4 == 0)
            yield return Event(id, id * 10 + 2, "shipped");
        if (r % 5 == 0)
            yield return new Step("GET", $"/orders/{id + 500_000}", null, HttpStatusCode.NotFound, null, null);
        if (r % 7 == 0)
            yield return new Step("POST", "/orders", order, HttpStatusCode.Created, id, null);
        if (r % 11 == 0)
            yield return new Step("POST", "/orders",
                $$"""{"id":{{id}},"customer":"{{customer}}","lines":[{"sku":"bad","quantity":0,"priceCents":1}]}""",
                HttpStatusCode.BadRequest, null, null);
    }

    private static Step Event(long id, long eventId, string kind) =>
        new("POST", $"/orders/{id}/events", $$"""{"eventId":{{eventId}},"kind":"{{kind}}"}""", HttpStatusCode.Accepted, null, eventId);

    private static string OrderBody(long id, string customer, int c, int r)
    {
        var lines = Enumerable.Range(0, r % 4 + 1).Select(l =>
            $$"""{"sku":"sku-{{(c * 7 + r * 3 + l) % 50}}","quantity":{{(l + r) % 5 + 1}},"priceCents":{{(c * 31 + r * 17 + l * 13) % 1000 + 100}}}""");
        return $$"""{"id":{{id}},"customer":"{{customer}}","lines":[{{string.Join(',', lines)}}]}""";
    }
}
