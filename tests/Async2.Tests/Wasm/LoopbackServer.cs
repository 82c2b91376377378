using System.Net;
using System.Net.Sockets;

namespace Async2.Tests.Wasm;

/// <summary>
/// The HTTP server headless Chromium loads WebAssembly pages from, for WasmRunner (the wasm host's
/// page and routes) and HeadlessChromium (a published Blazor app): an HttpListener on 127.0.0.1 at a
/// free port, answering one request at a time with the caller's responder, until disposed. Keep
/// the content types in step with the files those pages fetch.
/// </summary>
internal sealed class LoopbackServer : IDisposable
{
    private static readonly Dictionary<string, string> s_contentTypes = new(StringComparer.OrdinalIgnoreCase)
    {
        [".html"] = "text/html; charset=utf-8",
        [".js"] = "text/javascript",
        [".mjs"] = "text/javascript",
        [".json"] = "application/json",
        [".css"] = "text/css",
        // instantiateStreaming compiles WebAssembly only when served with its own type.
        [".wasm"] = "application/wasm",
    };

    private readonly HttpListener _listener;
    private readonly Func<HttpListenerContext, Task> _respond;
    private readonly Task _serving;

    /// <summary>Serves with <paramref name="respond"/>, which leaves the response open: the server closes it.</summary>
    public LoopbackServer(Func<HttpListenerContext, Task> respond)
    {
        _respond = respond;
        _listener = Listen();
        Origin = _listener.Prefixes.Single().TrimEnd('/');
        _serving = Task.Run(ServeAsync);
    }

    /// <summary>http://127.0.0.1:port, no trailing slash.</summary>
    public string Origin { get; }

    public static string ContentTypeOf(string file) =>
        s_contentTypes.GetValueOrDefault(Path.GetExtension(file), "application/octet-stream");

    /// <summary>
    /// The file under <paramref name="root"/> that a request's <paramref name="urlPath"/> names, or
    /// null when there is none, or when the path (.. or an escaped slash) leads out of the root.
    /// </summary>
    public static string? StaticFile(string root, string urlPath)
    {
        var folder = Path.GetFullPath(root);
        if (!Path.EndsInDirectorySeparator(folder))
            folder += Path.DirectorySeparatorChar;
        var file = Path.GetFullPath(Path.Combine(folder, Uri.UnescapeDataString(urlPath).TrimStart('/')));
        return file.StartsWith(folder, StringComparison.Ordinal) && File.Exists(file) ? file : null;
    }

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

    private async Task ServeAsync()
    {
        while (true)
        {
            try
            {
                var context = await _listener.GetContextAsync();
                using (context.Response)
                    await _respond(context);
            }
            catch (Exception) when (!_listener.IsListening)
            {
                return; // disposed, perhaps mid-response
            }
            catch (HttpListenerException)
            {
                // The browser went away mid-response (its page dumped, or Chromium killed after a timeout); nothing is waiting for it.
            }
        }
    }

    /// <summary>Stops listening; a responder that failed is thrown here.</summary>
    public void Dispose()
    {
        _listener.Close();
        _serving.Wait(TimeSpan.FromSeconds(10));
    }
}
