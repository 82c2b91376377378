using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;

namespace Async2.Cli.Bench;

/// <summary>
/// The web API scenario: starts each build of bench/Async2.Bench.WebApi on loopback (on .NET 10,
/// and on .NET 11 when it is laid out), checks that every endpoint answers what the classic build
/// answers, then loads each endpoint with wrk in several rounds and reads requests/s and latency
/// from wrk, bytes allocated from the app, and CPU time from /proc.
/// </summary>
internal static partial class WebApiBench
{
    public const string Benchmark = "apps";
    public static readonly string[] Endpoints = ["sync", "yield", "delay", "channel"];
    /// <summary>The id every request asks for; its quote is the same in every build.</summary>
    private const int Id = 7;
    /// <summary>One wrk thread leaves the other core of a 2-core machine to the server.</summary>
    public const int WrkThreads = 1;
    public const int Connections = 32;

    /// <summary>Each measured wrk run; a cell is the median of <see cref="Rounds"/> of them, so its ratio to Task comes with a spread.</summary>
    public static int Seconds(bool quick) => quick ? 1 : 5;
    public static int WarmupSeconds(bool quick) => quick ? 1 : 3;
    public static int Rounds(bool quick) => quick ? 2 : 3;

    /// <param name="Runtime">The dotnet root to run on (.NET 11), or null for the stock runtime.</param>
    public sealed record Server(string Variant, Flavor Flavor, string Dll, Runtimes.RuntimeRoot? Runtime = null);

    public static string Case(string endpoint) => $"GET /{endpoint}";

    /// <summary>
    /// All servers are started and checked first; then each endpoint is warmed up on every server and
    /// loaded in rounds, every server once per round in turn (the order rotating from one round and
    /// endpoint to the next), so that a slow spell of a shared machine is spread over the variants
    /// instead of landing on one.
    /// A server whose answers differ from the classic build's is stopped and posts no number.
    /// </summary>
    /// <returns>The cells, and wrk's version (or why there is none) for the machine table.</returns>
    public static (List<BenchCell> Cells, string Wrk) Run(IReadOnlyList<Server> servers, bool quick, Action<string> progress)
    {
        int seconds = Seconds(quick), warmupSeconds = WarmupSeconds(quick), rounds = Rounds(quick);
        var cells = new List<BenchCell>();
        var broken = new HashSet<string>();
        void Fail(string variant, string reason)
        {
            broken.Add(variant);
            progress($"        {variant}: fails: {reason}");
            cells.RemoveAll(c => c.Variant == variant);
            cells.AddRange(Endpoints.Select(endpoint =>
                new BenchCell { Benchmark = Benchmark, Variant = variant, Case = Case(endpoint), Unit = "req/s", Note = "fails: " + reason }));
        }

        var wrk = WrkVersion();
        if (wrk is null)
        {
            progress("        wrk is not installed: installing Debian's wrk with apt-get");
            if (ExternalTool.InstallFromDebian("wrk", () => WrkVersion() is not null) is { } problem)
            {
                progress($"        {problem}: the web API cells are marked failed");
                foreach (var server in servers)
                    Fail(server.Variant, "wrk is not installed: " + problem);
                return (cells, "not installed: " + problem);
            }
            wrk = WrkVersion()!;
        }

        var running = new List<(Server Server, StartedApp App)>();
        try
        {
            Dictionary<string, string>? expected = null;
            foreach (var server in servers)
            {
                progress($"        {server.Variant}: {server.Dll}");
                StartedApp? app = null;
                try
                {
                    app = StartedApp.Start(server);
                    var answers = Endpoints.ToDictionary(e => e, e => app.Get($"/{e}/{Id}"));
                    // The classic build comes first and sets what the others must answer.
                    expected ??= server.Flavor == Flavor.Classic ? answers : throw new InvalidOperationException("no classic answers to compare with");
                    var wrong = Endpoints.FirstOrDefault(e => answers[e] != expected[e]);
                    if (wrong is not null)
                        throw new InvalidOperationException($"GET /{wrong}/{Id} answered {Quote(answers[wrong])}, the classic build {Quote(expected[wrong])}");
                    running.Add((server, app));
                }
                catch (Exception e) when (IsRunFailure(e))
                {
                    app?.Dispose();
                    Fail(server.Variant, e.Message);
                }
            }

            for (int i = 0; i < Endpoints.Length; i++)
            {
                var endpoint = Endpoints[i];
                var measured = running.ToDictionary(r => r.Server.Variant, _ => new List<Load>());
                // A run with a non-2xx answer or a socket error posts no number for the endpoint; the server goes on with the others.
                var errorsOf = new Dictionary<string, string>();
                for (int round = 0; round <= rounds; round++)
                {
                    foreach (var (server, app) in Enumerable.Range(0, running.Count).Select(j => running[(i + round + j) % running.Count]))
                    {
                        if (broken.Contains(server.Variant) || errorsOf.ContainsKey(server.Variant))
                            continue;
                        try
                        {
                            // Round 0 warms every server up before any is measured.
                            var load = Measure(app, endpoint, round == 0 ? warmupSeconds : seconds);
                            if (load.Errors is { } errors)
                                errorsOf[server.Variant] = errors;
                            else if (round > 0)
                            {
                                measured[server.Variant].Add(load);
                                progress($"        {server.Variant,-16} {Case(endpoint),-12} round {round}: {Format.Number(load.RequestsPerSecond)} req/s, p50 {load.P50Ms:F2} ms, p99 {load.P99Ms:F2} ms");
                            }
                            if (app.HasExited)
                                throw new InvalidOperationException($"the server exited during the run; last output:\n{app.OutputTail}");
                        }
                        catch (Exception e) when (IsRunFailure(e))
                        {
                            Fail(server.Variant, e.Message);
                        }
                    }
                }
                foreach (var (variant, loads) in measured)
                {
                    if (broken.Contains(variant))
                        continue;
                    cells.Add(errorsOf.TryGetValue(variant, out var errors)
                        ? new BenchCell { Benchmark = Benchmark, Variant = variant, Case = Case(endpoint), Unit = "req/s", Note = "fails: " + errors }
                        : Cell(variant, endpoint, loads));
                }
            }
        }
        finally
        {
            foreach (var (_, app) in running)
                app.Dispose();
        }
        return (cells, wrk);
    }

    private static bool IsRunFailure(Exception e) =>
        e is InvalidOperationException or IOException or HttpRequestException or TimeoutException or FormatException or TaskCanceledException;

    /// <summary>One wrk run against one server, with the bytes the server allocated and the CPU time it used meanwhile.</summary>
    private static Load Measure(StartedApp app, string endpoint, int seconds)
    {
        long allocated = long.Parse(app.Get("/stats/allocated"), CultureInfo.InvariantCulture);
        var cpu = app.CpuSeconds();
        var load = Wrk($"{app.BaseUrl}/{endpoint}/{Id}", seconds);
        return load with
        {
            CpuSeconds = app.CpuSeconds() - cpu,
            AllocatedBytes = long.Parse(app.Get("/stats/allocated"), CultureInfo.InvariantCulture) - allocated,
        };
    }

    /// <summary>The median round's requests/s and latencies; bytes and CPU per request over all rounds; every round's requests/s.</summary>
    private static BenchCell Cell(string variant, string endpoint, List<Load> loads)
    {
        var median = loads.OrderBy(l => l.RequestsPerSecond).ElementAt((loads.Count - 1) / 2);
        long requests = loads.Sum(l => l.Requests);
        return new BenchCell
        {
            Benchmark = Benchmark,
            Variant = variant,
            Case = Case(endpoint),
            Unit = "req/s",
            Value = median.RequestsPerSecond,
            BytesPerOp = (double)loads.Sum(l => l.AllocatedBytes) / requests,
            Rounds = loads.Select(l => l.RequestsPerSecond).ToList(),
            Extra = new()
            {
                ["p50Ms"] = median.P50Ms,
                ["p99Ms"] = median.P99Ms,
                ["cpuUsPerRequest"] = loads.Sum(l => l.CpuSeconds) * 1e6 / requests,
                ["requests"] = requests,
            },
        };
    }

    private static string Quote(string text) => text.Length > 120 ? $"'{text[..120]}...'" : $"'{text}'";

    /// <summary>wrk's version line, or null when wrk is not on PATH (it prints its usage and exits 1 for -v).</summary>
    public static string? WrkVersion()
    {
        try
        {
            var (_, output) = ExternalTool.Capture("wrk", ["-v"], TimeSpan.FromSeconds(10));
            var line = output.Split('\n').FirstOrDefault(l => l.StartsWith("wrk ", StringComparison.Ordinal));
            return line?[..(line.IndexOf(" Copyright", StringComparison.Ordinal) is var end and > 0 ? end : line.Length)].Trim();
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }

    private sealed record Load(double RequestsPerSecond, long Requests, double P50Ms, double P99Ms, string? Errors)
    {
        public double CpuSeconds { get; init; }
        public long AllocatedBytes { get; init; }
    }

    private static Load Wrk(string url, int seconds)
    {
        var (exitCode, output) = ExternalTool.Capture("wrk", ["-t", WrkThreads.ToString(CultureInfo.InvariantCulture), "-c", Connections.ToString(CultureInfo.InvariantCulture),
            "-d", $"{seconds}s", "--timeout", "2s", "--latency", url], TimeSpan.FromSeconds(seconds + 30));
        if (exitCode != 0)
            throw new InvalidOperationException($"wrk exited with {exitCode}: {output.Trim()}");
        var requests = WrkRequests().Match(output);
        var rate = WrkRate().Match(output);
        if (!requests.Success || !rate.Success)
            throw new FormatException($"unexpected wrk output: {output.Trim()}");
        var socketErrors = WrkSocketErrors().Match(output);
        var non2xx = WrkNon2xx().Match(output);
        string? errors = non2xx.Success ? $"{non2xx.Groups[1].Value} responses were not 2xx/3xx"
            : socketErrors.Success ? $"wrk socket errors: {socketErrors.Groups[1].Value}"
            : null;
        return new Load(double.Parse(rate.Groups[1].Value, CultureInfo.InvariantCulture), long.Parse(requests.Groups[1].Value, CultureInfo.InvariantCulture),
            Percentile(output, "50%"), Percentile(output, "99%"), errors);
    }

    /// <summary>A line of wrk's --latency distribution ("     99%    3.91ms"), in ms.</summary>
    private static double Percentile(string output, string percentile)
    {
        var match = Regex.Match(output, $@"^\s*{Regex.Escape(percentile)}\s+([\d.]+)(us|ms|s)\s*$", RegexOptions.Multiline);
        if (!match.Success)
            throw new FormatException($"no {percentile} latency in wrk's output: {output.Trim()}");
        double value = double.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture);
        return match.Groups[2].Value switch { "us" => value / 1000, "ms" => value, _ => value * 1000 };
    }

    [GeneratedRegex(@"^\s*(\d+) requests in ", RegexOptions.Multiline)]
    private static partial Regex WrkRequests();

    [GeneratedRegex(@"^Requests/sec:\s+([\d.]+)", RegexOptions.Multiline)]
    private static partial Regex WrkRate();

    [GeneratedRegex(@"^\s*Socket errors: (.+)$", RegexOptions.Multiline)]
    private static partial Regex WrkSocketErrors();

    [GeneratedRegex(@"^\s*Non-2xx or 3xx responses: (\d+)", RegexOptions.Multiline)]
    private static partial Regex WrkNon2xx();

    /// <summary>One server process, bound to a port the OS chose on 127.0.0.1; killed on dispose.</summary>
    private sealed class StartedApp : IDisposable
    {
        private const string Listening = "listening on ";
        private readonly Process _process;
        private readonly HttpClient _client = new() { Timeout = TimeSpan.FromSeconds(10) };
        private readonly Queue<string> _tail = new();
        private readonly TaskCompletionSource<string> _listening = new(TaskCreationOptions.RunContinuationsAsynchronously);

        private StartedApp(Process process)
        {
            _process = process;
            process.OutputDataReceived += (_, e) =>
            {
                if (e.Data?.StartsWith(Listening, StringComparison.Ordinal) == true)
                    _listening.TrySetResult(e.Data[Listening.Length..].Split(' ')[0].TrimEnd('/'));
                Keep(e.Data);
            };
            process.ErrorDataReceived += (_, e) => Keep(e.Data);
            process.Exited += (_, _) => _listening.TrySetException(new InvalidOperationException("the server exited before it listened"));
            process.EnableRaisingEvents = true;
            process.BeginOutputReadLine();
            process.BeginErrorReadLine();
        }

        public static StartedApp Start(Server server)
        {
            // .NET 10 runs runtime-async methods only under the switch; .NET 11 runs them natively.
            var info = ChildProcess.StartInfo([server.Dll, "--urls", "http://127.0.0.1:0"], runtimeAsync: server.Flavor == Flavor.Runtime && server.Runtime is null, redirect: true, server.Runtime);
            var app = new StartedApp(Process.Start(info) ?? throw new InvalidOperationException("the server did not start"));
            try
            {
                if (!app._listening.Task.Wait(TimeSpan.FromSeconds(60)))
                    throw new TimeoutException("the server did not say where it listens within 60 s");
            }
            catch (Exception e) when (e is TimeoutException or AggregateException)
            {
                var tail = app.OutputTail;
                app.Dispose();
                throw new InvalidOperationException($"{e.GetBaseException().Message}; last output:\n{tail}");
            }
            return app;
        }

        public string BaseUrl => _listening.Task.Result;

        private void Keep(string? line)
        {
            if (line is null)
                return;
            lock (_tail)
            {
                _tail.Enqueue(line);
                while (_tail.Count > 12)
                    _tail.Dequeue();
            }
        }

        public bool HasExited => _process.HasExited;

        public string OutputTail
        {
            get
            {
                lock (_tail)
                    return string.Join('\n', _tail);
            }
        }

        /// <summary>The body of a GET that must succeed.</summary>
        public string Get(string path)
        {
            using var response = _client.Send(new HttpRequestMessage(HttpMethod.Get, BaseUrl + path));
            using var reader = new StreamReader(response.Content.ReadAsStream());
            var body = reader.ReadToEnd();
            if (!response.IsSuccessStatusCode)
                throw new InvalidOperationException($"GET {path}: {(int)response.StatusCode} {Quote(body)}");
            return body;
        }

        /// <summary>User plus system CPU time of the server so far (the runtime reads /proc/&lt;pid&gt;/stat anew on every call).</summary>
        public double CpuSeconds() => _process.TotalProcessorTime.TotalSeconds;

        public void Dispose()
        {
            try
            {
                _process.Kill(entireProcessTree: true);
                _process.WaitForExit(TimeSpan.FromSeconds(10));
            }
            catch (InvalidOperationException)
            {
            }
            _process.Dispose();
            _client.Dispose();
        }
    }
}
