using System.Net;
using System.Net.Sockets;
using Async2.Tests.Corpus;

namespace Async2.Tests.Packages;

/// <summary>
/// A published Blazor WebAssembly app as a browser shows it: its wwwroot served on a loopback port
/// by a static file server of the test's own, loaded by headless Chromium, and the DOM it rendered
/// read back (<c>--dump-dom</c> after a virtual-time budget). Chromium as Wasm.Chromium starts it.
/// </summary>
internal static class HeadlessChromium
{
    /// <summary>
    /// The DOM of <paramref name="wwwroot"/>'s index.html once the page shows <paramref name="settled"/>.
    /// WebAssembly compiles off the main thread, where virtual time does not wait: on a busy machine
    /// the budget can run out before the app has started, so a page not yet settled is loaded again,
    /// with a larger budget.
    /// </summary>
    public static string RenderedDom(string wwwroot, string scratch, Func<string, bool> settled)
    {
        var chromium = Wasm.Chromium.Path();
        using var server = new StaticFileServer(wwwroot);
        var dom = "";
        for (int attempt = 1; attempt <= 3; attempt++)
        {
            var headless = Wasm.Chromium.HeadlessArguments(Path.Combine(scratch, $"profile-{Guid.NewGuid():N}"));
            var run = ProgramRunner.Run(chromium, [.. headless, $"--virtual-time-budget={attempt * 60_000}", "--dump-dom", server.Address],
                timeout: TimeSpan.FromMinutes(3));
            dom = run.Stdout;
            if (settled(dom))
                break;
        }
        return dom;
    }

    /// <summary>Serves a folder's files on 127.0.0.1 (GET only, with the types a Blazor app's files need) until disposed.</summary>
    private sealed class StaticFileServer : IDisposable
    {
        private static readonly Dictionary<string, string> ContentTypes = new(StringComparer.OrdinalIgnoreCase)
        {
            [".html"] = "text/html; charset=utf-8",
            [".js"] = "text/javascript",
            [".mjs"] = "text/javascript",
            [".json"] = "application/json",
            [".css"] = "text/css",
            // instantiateStreaming compiles WebAssembly only when served with its own type.
            [".wasm"] = "application/wasm",
        };

        private readonly string root;
        private readonly HttpListener listener;
        private readonly Task serving;

        public StaticFileServer(string root)
        {
            this.root = Path.GetFullPath(root);
            listener = Listen();
            Address = listener.Prefixes.Single();
            serving = Task.Run(Serve);
        }

        public string Address { get; }

        /// <summary>HttpListener takes no port 0: a port the system just gave out is tried, again if another process took it first.</summary>
        private static HttpListener Listen()
        {
            for (int attempt = 1; ; attempt++)
            {
                var probe = new TcpListener(IPAddress.Loopback, 0);
                probe.Start();
                var port = ((IPEndPoint)probe.LocalEndpoint).Port;
                probe.Stop();
                var listener = new HttpListener();
                listener.Prefixes.Add($"http://127.0.0.1:{port}/");
                try
                {
                    listener.Start();
                    return listener;
                }
                catch (HttpListenerException) when (attempt < 5)
                {
                    listener.Close();
                }
            }
        }

        private async Task Serve()
        {
            while (listener.IsListening)
            {
                HttpListenerContext context;
                try
                {
                    context = await listener.GetContextAsync();
                }
                catch (Exception e) when (e is HttpListenerException or ObjectDisposedException)
                {
                    return; // disposed
                }
                using var response = context.Response;
                var relative = Uri.UnescapeDataString(context.Request.Url!.AbsolutePath).TrimStart('/');
                var path = Path.GetFullPath(Path.Combine(root, relative.Length == 0 ? "index.html" : relative));
                if (!path.StartsWith(root + Path.DirectorySeparatorChar, StringComparison.Ordinal) || !File.Exists(path))
                {
                    response.StatusCode = 404;
                    continue;
                }
                response.ContentType = ContentTypes.GetValueOrDefault(Path.GetExtension(path), "application/octet-stream");
                var bytes = await File.ReadAllBytesAsync(path);
                response.ContentLength64 = bytes.Length;
                try
                {
                    await response.OutputStream.WriteAsync(bytes);
                }
                catch (HttpListenerException)
                {
                    // The browser went away mid-response (the page was dumped); nothing is waiting for it.
                }
            }
        }

        public void Dispose()
        {
            listener.Close();
            serving.Wait(TimeSpan.FromSeconds(10));
        }
    }
}
