using System.Diagnostics;
using System.Net;
using System.Text;

namespace Async2.Tests.Wasm;

/// <summary>One page: a program assembly (its PDB beside it) and the arguments its Main gets.</summary>
internal sealed record WasmRun(string Assembly, params string[] Arguments);

/// <summary>
/// Runs program assemblies in Mono on WebAssembly, one page load each, in one headless Chromium:
/// a LoopbackServer serves the host page (tests/wasm-host), hands page K the assembly of run K
/// (and its PDB, for line numbers), takes its transcript and sends the page on to run K+1. A run
/// that posts nothing in time is recorded as timed out, and Chromium is restarted at the next run
/// (a page stuck in a loop holds its renderer). Keep the routes in sync with the host's Program.cs and main.js.
/// </summary>
internal sealed class WasmRunner : IDisposable
{
    private readonly IReadOnlyList<string> _roots;
    private readonly IReadOnlyList<WasmRun> _runs;
    private readonly string?[] _transcripts;
    private readonly Action<int, string>? _recorded;
    private readonly SemaphoreSlim _posted = new(0);
    private readonly LoopbackServer _server;

    private WasmRunner(IReadOnlyList<string> roots, IReadOnlyList<WasmRun> runs, Action<int, string>? recorded)
    {
        _roots = roots;
        _runs = runs;
        _recorded = recorded;
        _transcripts = new string?[runs.Count];
        _server = new LoopbackServer(RespondAsync);
    }

    private const string TimedOut = "[timed out after ";

    /// <summary>Whether <see cref="Run"/> recorded this transcript for a page that posted nothing in time.</summary>
    public static bool IsTimeout(string transcript) => transcript.StartsWith(TimedOut, StringComparison.Ordinal);

    /// <summary>Each run's transcript, in order; <paramref name="perRun"/> bounds each page.</summary>
    /// <param name="recorded">Called with each run's index and transcript as soon as it has one, for a caller that keeps them as it goes.</param>
    public static IReadOnlyList<string> Run(IReadOnlyList<WasmRun> runs, TimeSpan perRun, Action<int, string>? recorded = null)
    {
        using var runner = new WasmRunner(WasmHost.Build(), runs, recorded);
        return runner.RunAll(perRun);
    }

    private IReadOnlyList<string> RunAll(TimeSpan perRun)
    {
        var next = 0;
        while (next < _runs.Count)
        {
            var profile = Directory.CreateTempSubdirectory("async2-wasm-chromium-").FullName;
            using var chromium = Process.Start(new ProcessStartInfo(Chromium.Path(), [.. Chromium.HeadlessArguments(profile), PageOf(next)])
            {
                RedirectStandardError = true,
                RedirectStandardOutput = true,
            })!;
            chromium.ErrorDataReceived += (_, _) => { };
            chromium.OutputDataReceived += (_, _) => { };
            chromium.BeginErrorReadLine();
            chromium.BeginOutputReadLine();
            try
            {
                while (next < _runs.Count)
                {
                    if (!_posted.Wait(perRun) && Volatile.Read(ref _transcripts[next]) is null)
                    {
                        var timedOut = $"{TimedOut}{perRun.TotalSeconds:0} s in the browser]";
                        _transcripts[next] = timedOut;
                        _recorded?.Invoke(next, timedOut);
                        next++;
                        break; // a fresh browser for the rest
                    }
                    while (next < _runs.Count && Volatile.Read(ref _transcripts[next]) is not null)
                        next++;
                }
            }
            finally
            {
                chromium.Kill(entireProcessTree: true);
                chromium.WaitForExit();
                Directory.Delete(profile, recursive: true);
            }
        }
        return _transcripts!;
    }

    private string PageOf(int run) =>
        $"{_server.Origin}/index.html?run={run}" + string.Concat(_runs[run].Arguments.Select(a => "&arg=" + Uri.EscapeDataString(a)));

    private async Task RespondAsync(HttpListenerContext context)
    {
        var path = context.Request.Url!.AbsolutePath;
        var response = context.Response;
        var segments = path.Split('/', StringSplitOptions.RemoveEmptyEntries);
        byte[]? body = null;
        var type = "application/octet-stream";
        if (segments is ["program", var file] && int.TryParse(Path.GetFileNameWithoutExtension(file), out var run) && run < _runs.Count)
            body = await File.ReadAllBytesAsync(Path.ChangeExtension(_runs[run].Assembly, Path.GetExtension(file)));
        else if (segments is ["result", var posted] && int.TryParse(posted, out run) && run < _runs.Count)
        {
            using var reader = new StreamReader(context.Request.InputStream, Encoding.UTF8);
            var transcript = await reader.ReadToEndAsync();
            // The host's transcript comes first; main.js's note that the runtime exited follows it, and counts only alone.
            if (Interlocked.CompareExchange(ref _transcripts[run], transcript, null) is null)
            {
                _recorded?.Invoke(run, transcript);
                _posted.Release();
            }
            body = [];
        }
        else if (segments is ["next", var done] && int.TryParse(done, out run))
        {
            body = Encoding.UTF8.GetBytes(run + 1 < _runs.Count ? PageOf(run + 1) : "");
            type = "text/plain";
        }
        else if (_roots.Select(root => LoopbackServer.StaticFile(root, path)).FirstOrDefault(found => found is not null) is { } asset)
        {
            body = await File.ReadAllBytesAsync(asset);
            type = LoopbackServer.ContentTypeOf(asset);
        }
        response.StatusCode = body is null ? 404 : 200;
        response.ContentType = type;
        // The framework's files carry their hash in their names; the profile is new with each browser.
        response.Headers["Cache-Control"] = path.StartsWith("/_framework/", StringComparison.Ordinal) ? "max-age=3600" : "no-store";
        if (body is not null)
            await response.OutputStream.WriteAsync(body);
    }

    public void Dispose() => _server.Dispose();
}
