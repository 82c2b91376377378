using System.Net;
using Async2.Tests.Corpus;
using Async2.Tests.Wasm;

namespace Async2.Tests.Packages;

/// <summary>
/// A published Blazor WebAssembly app as a browser shows it: its wwwroot served on a loopback port
/// (Wasm.LoopbackServer, whose content types are the ones a Blazor app's files need), loaded by
/// headless Chromium, and the DOM it rendered read back (<c>--dump-dom</c> after a virtual-time
/// budget). Chromium as Wasm.Chromium starts it.
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
        var chromium = Chromium.Path();
        using var server = new LoopbackServer(context => ServeFileAsync(wwwroot, context));
        var dom = "";
        for (int attempt = 1; attempt <= 3; attempt++)
        {
            var headless = Chromium.HeadlessArguments(Path.Combine(scratch, $"profile-{Guid.NewGuid():N}"));
            var run = ProgramRunner.Run(chromium, [.. headless, $"--virtual-time-budget={attempt * 60_000}", "--dump-dom", server.Origin + "/"],
                timeout: TimeSpan.FromMinutes(3));
            dom = run.Stdout;
            if (settled(dom))
                break;
        }
        return dom;
    }

    /// <summary>The app's files; the root, which Chromium is sent to, is its index.html.</summary>
    private static async Task ServeFileAsync(string wwwroot, HttpListenerContext context)
    {
        var response = context.Response;
        var urlPath = context.Request.Url!.AbsolutePath;
        if (LoopbackServer.StaticFile(wwwroot, urlPath == "/" ? "/index.html" : urlPath) is not { } file)
        {
            response.StatusCode = 404;
            return;
        }
        response.ContentType = LoopbackServer.ContentTypeOf(file);
        var bytes = await File.ReadAllBytesAsync(file);
        response.ContentLength64 = bytes.Length;
        await response.OutputStream.WriteAsync(bytes);
    }
}
